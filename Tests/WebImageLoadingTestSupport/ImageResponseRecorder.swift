import WebImage
import WebImageTestSupport

/// Collects the answers of the manager's callback API, or of a target's completion, and
/// lets a test wait for them.
package final class ImageResponseRecorder: Sendable {
    private let log = ArrivalLog<ImageResponse>()

    package init() {}

    /// The answers so far, in arrival order.
    package var responses: [ImageResponse] { log.elements }

    /// How many answers arrived.
    package var count: Int { log.count }

    /// The completion handler to pass to a target.
    package var handler: @Sendable (ImageResponse) -> Void {
        { [self] response in record(response) }
    }

    /// Records one answer; pass it as a completion.
    package func record(_ response: ImageResponse) {
        log.append(response)
    }

    /// Returns once `count` answers have arrived; throws as `ArrivalLog.wait(for:)` does.
    package func wait(for count: Int = 1) async throws {
        try await log.wait(for: count)
    }

    /// Returns once an answer with ``ImageResponse/isFinished`` has arrived.
    package func waitForFinishedResponse() async throws {
        try await log.wait { $0.contains(where: \.isFinished) }
    }

    /// Returns once `condition` holds for the answers so far.
    package func wait(until condition: @escaping @Sendable ([ImageResponse]) -> Bool) async throws {
        try await log.wait(until: condition)
    }
}
