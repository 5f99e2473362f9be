import NIOConcurrencyHelpers

/// Keeps the latest answer a load reported, for the `async` API.
final class LastResponse: Sendable {
    private let box = NIOLockedValueBox<ImageResponse?>(nil)

    /// The latest answer.
    var value: ImageResponse? { box.withLockedValue { $0 } }

    /// Replaces the latest answer.
    func set(_ response: ImageResponse) {
        box.withLockedValue { $0 = response }
    }
}
