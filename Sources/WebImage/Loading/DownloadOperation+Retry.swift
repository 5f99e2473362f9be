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
    /// - Returns: Whether another attempt is scheduled; when `false` the caller ends the
    ///   transfer with `error`.
    func scheduleRetry(after error: ImageError, retryAfter: String?) -> Bool {
        let defaultPolicy = downloader.config.retryPolicy
        let scheduled = state.withLockedValue { state -> DownloadRetry? in
            guard state.phase == .running, state.retryTimer == nil else { return nil }
            let policies = state.handlers.values.map { $0.request.retryPolicy ?? defaultPolicy }
            guard let policy = policies.max(by: { $0.maximumAttempts < $1.maximumAttempts }), policy.isTransient(error),
                let delay = policy.delay(afterAttempt: state.attempt, retryAfter: retryAfter)
            else { return nil }
            state.attempt += 1
            state.request = nil
            state.lastReportedBytes = 0
            state.retryTimer = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: .nanoseconds(Int64(delay * 1e9))) {
                self.startScheduledRetry()
            }
            return DownloadRetry(attempt: state.attempt, delay: delay, error: error)
        }
        guard let scheduled else { return false }
        downloader.emit(.retrying(url, scheduled))
        return true
    }

    /// Sends the attempt the retry timer waited for, unless every caller left meanwhile.
    private func startScheduledRetry() {
        let proceeds = state.withLockedValue { state -> Bool in
            guard state.phase == .running, state.retryTimer != nil else { return false }
            state.retryTimer = nil
            state.lastActivity = .now()
            state.wasFoundSilent = false
            return true
        }
        if proceeds {
            HTTPExchange.send(for: self, to: url)
        }
    }
}
