import NIOCore
import NIOPosix

extension DownloadOperation {
    /// Arms the timer for the earliest deadline among the callers of the running transfer,
    /// replacing a later one; does nothing when no caller has a deadline.
    func scheduleDeadline() {
        state.withLockedValue { state in
            guard state.phase == .running, let start = state.transferStart,
                let earliest = state.handlers.values.compactMap({ deadline(of: $0, from: start) }).min()
            else { return }
            if let armed = state.deadlineTimer {
                // One timer at a time: keep it when it fires no later than needed.
                guard earliest < armed.deadline else { return }
                armed.timer.cancel()
            }
            let timer = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(deadline: earliest) {
                self.expireOverdueHandlers()
            }
            state.deadlineTimer = (timer, earliest)
        }
    }

    /// Fails the callers whose deadline has passed with `ImageError.Code.deadlineExceeded`
    /// (the transfer stops when none is left), then arms the timer for the next deadline.
    private func expireOverdueHandlers() {
        let now = NIODeadline.now()
        let overdue = state.withLockedValue { state -> [(id: Int, seconds: Double)] in
            state.deadlineTimer = nil
            guard state.phase == .running, let start = state.transferStart else { return [] }
            return state.handlers.compactMap { id, handler in
                guard let deadline = deadline(of: handler, from: start), deadline <= now else { return nil }
                return (id, Double((deadline - start).nanoseconds) / 1e9)
            }
        }
        for (id, seconds) in overdue {
            let error = ImageError(.deadlineExceeded, "the download of \(url.absoluteString) took longer than its deadline of \(seconds) s")
            cancel(handlerID: id, error: error)
        }
        scheduleDeadline()
    }

    /// When the caller `handler` gives up on a transfer that started at `start`; `nil`
    /// when it has no deadline.
    private func deadline(of handler: DownloadHandler, from start: NIODeadline) -> NIODeadline? {
        let seconds = handler.request.downloadDeadline ?? downloader.configuration.downloadDeadline
        guard seconds > 0 else { return nil }
        return start + .nanoseconds(Int64(min(seconds, 1e9) * 1e9))
    }
}
