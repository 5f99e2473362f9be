@testable import WebImageTestSupport
/// What a callback-API prefetch reported: its progress calls, its completions, and a way
/// to wait for the first completion.
final class PrefetchReport: Sendable {
    /// Each progress call as `[finished, total]`.
    let progress = DownloadCallbackRecorder<[Int]>()
    /// Each completion as `[finished, skipped]`.
    let completions = ArrivalLog<[Int]>()

    func recordProgress(_ finished: Int, _ total: Int) {
        progress.append([finished, total])
    }

    func recordCompletion(_ finished: Int, _ skipped: Int) {
        completions.append([finished, skipped])
    }

    /// Returns once a completion has arrived; throws as `ArrivalLog.wait(for:)` does.
    func waitForCompletion() async throws {
        try await completions.wait(for: 1)
    }
}
