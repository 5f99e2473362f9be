@testable import WebImage
@testable import WebImageTestSupport

/// Collects the answers of the manager's callback API, or of a target's completion, and
/// lets a test wait for them.
final class ImageResponseRecorder: Sendable {
    private let log = ArrivalLog<ImageResponse>()

    /// The answers so far, in arrival order.
    var responses: [ImageResponse] { log.elements }

    /// How many answers arrived.
    var count: Int { log.count }

    /// The completion handler to pass to a target.
    var handler: @Sendable (ImageResponse) -> Void {
        { [self] response in record(response) }
    }

    /// Records one answer; pass it as a completion.
    func record(_ response: ImageResponse) {
        log.append(response)
    }

    /// Returns once `count` answers have arrived; throws as `ArrivalLog.wait(for:)` does.
    func wait(for count: Int = 1) async throws {
        try await log.wait(for: count)
    }

    /// Returns once an answer with ``ImageResponse/isFinished`` has arrived.
    func waitForFinishedResponse() async throws {
        try await log.wait { $0.contains(where: \.isFinished) }
    }

    /// Returns once `condition` holds for the answers so far.
    func wait(until condition: @escaping @Sendable ([ImageResponse]) -> Bool) async throws {
        try await log.wait(until: condition)
    }
}
