/// What a callback-API prefetch reported: its progress calls, its completions, and a way
/// to wait for the first completion.
final class PrefetchReport: Sendable {
    /// Each progress call as `[finished, total]`.
    let progress = DownloadCallbackRecorder<[Int]>()
    /// Each completion as `[finished, skipped]`.
    let completions = DownloadCallbackRecorder<[Int]>()
    private let completed = ArrivalLog<Bool>()

    func recordProgress(_ finished: Int, _ total: Int) {
        progress.append([finished, total])
    }

    func recordCompletion(_ finished: Int, _ skipped: Int) {
        completions.append([finished, skipped])
        completed.append(true)
    }

    /// Returns once a completion has arrived; throws as `ArrivalLog.wait(for:)` does.
    func waitForCompletion() async throws {
        try await completed.wait(for: 1)
    }
}
