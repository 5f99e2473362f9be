import Foundation
import NIOCore
import NIOPosix

extension DownloadOperation {
    /// Schedules the next attempt after a failed one, when the failure is transient and
    /// the callers' retry policy allows another; nothing here runs unless an attempt failed.
    ///
    /// - Parameters:
    ///   - error: Why the attempt failed.
    ///   - retryAfter: The failed response's `Retry-After` header, if any.
    ///   - resumable: The part of the body received, when the response allows asking for
    ///     the rest; kept for the next attempt while the downloader's resume budget
    ///     (``ImageDownloaderConfiguration/maximumResumableBytes``) has room.
    /// - Returns: Whether another attempt is scheduled; when `false` the caller ends the
    ///   transfer with `error`.
    func scheduleRetry(after error: ImageError, retryAfter: String?, resumable: ResumableBody?) -> Bool {
        let defaultPolicy = downloader.configuration.retryPolicy
        let scheduled = state.withLockedValue { state -> DownloadRetry? in
            guard state.phase == .running, state.retryTimer == nil else { return nil }
            let policies = state.handlers.values.map { $0.request.retryPolicy ?? defaultPolicy }
            guard let policy = policies.max(by: { $0.maximumAttempts < $1.maximumAttempts }), policy.isTransient(error),
                let delay = policy.delay(afterAttempt: state.attempt, retryAfter: retryAfter)
            else { return nil }
            state.attempt += 1
            state.request = nil
            if let resumable, downloader.reserveResumableBytes(resumable.count) {
                state.resumable = resumable
            }
            state.lastReportedBytes = 0
            state.retryTimer = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: .nanoseconds(Int64(delay * 1e9))) {
                self.startScheduledRetry()
            }
            return DownloadRetry(attempt: state.attempt, delay: delay, error: error, resumeOffset: state.resumable?.count ?? 0)
        }
        guard let scheduled else { return false }
        downloader.emit(.retrying(url, scheduled))
        return true
    }

    /// Sends the attempt the retry timer waited for, unless every caller left meanwhile.
    private func startScheduledRetry() {
        let (proceeds, resumable) = state.withLockedValue { state -> (Bool, ResumableBody?) in
            guard state.phase == .running, state.retryTimer != nil else { return (false, nil) }
            state.retryTimer = nil
            state.lastActivity = .now()
            state.wasFoundSilent = false
            defer { state.resumable = nil }
            return (true, state.resumable)
        }
        if proceeds {
            HTTPExchange.send(for: self, to: url, resuming: resumable)
        }
    }
}
