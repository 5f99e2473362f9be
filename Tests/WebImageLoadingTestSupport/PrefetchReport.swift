import WebImageTestSupport
/// What a callback-API prefetch reported: its progress calls, its completions, and a way
/// to wait for the first completion.
package final class PrefetchReport: Sendable {
    /// Each progress call as `[finished, total]`.
    package let progress = DownloadCallbackRecorder<[Int]>()
    /// Each completion as `[finished, skipped]`.
    package let completions = ArrivalLog<[Int]>()

    package init() {}

    package func recordProgress(_ finished: Int, _ total: Int) {
        progress.append([finished, total])
    }

    package func recordCompletion(_ finished: Int, _ skipped: Int) {
        completions.append([finished, skipped])
    }

    /// Returns once a completion has arrived; throws as `ArrivalLog.wait(for:)` does.
    package func waitForCompletion() async throws {
        try await completions.wait(for: 1)
    }
}
