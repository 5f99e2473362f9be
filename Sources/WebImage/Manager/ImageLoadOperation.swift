import NIOConcurrencyHelpers

/// A running load, as the manager's callback API returns it: cancel it to cancel the
/// cache query and this caller's share of the download. A cancelled load never calls
/// its completion.
public final class ImageLoadOperation: Sendable {
    private struct State {
        var isCancelled = false
        var isFinished = false
        var task: Task<Void, Never>?
    }

    private let state = NIOLockedValueBox(State())
    /// The priority of the load's download while it waits in the downloader's queue.
    let priorityControl = DownloadPriorityControl()
    private let onEnd: @Sendable (ImageLoadOperation) -> Void

    init(onEnd: @escaping @Sendable (ImageLoadOperation) -> Void) {
        self.onEnd = onEnd
    }

    /// A load that ended before it was returned: what every synchronous memory hit returns,
    /// so that answering one allocates no operation.
    static let finished: ImageLoadOperation = {
        let operation = ImageLoadOperation { _ in }
        operation.finish()
        return operation
    }()

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { state.withLockedValue { $0.isCancelled } }

    /// Whether the load has ended: its last answer is delivered (or being delivered), or it
    /// was cancelled.
    public var isFinished: Bool { state.withLockedValue { $0.isFinished || $0.isCancelled } }

    /// Changes the priority of the load's download while it waits in the downloader's queue
    /// (it starts at the highest priority among the loads that share it); later downloads
    /// of the load get it too. Once the transfer has started, nothing changes.
    public func setPriority(_ priority: DownloadPriority) {
        priorityControl.setPriority(priority)
    }

    /// Stops the load; no completion is called after this returns on the callback queue.
    public func cancel() {
        let task = state.withLockedValue { state -> Task<Void, Never>? in
            guard !state.isCancelled, !state.isFinished else { return nil }
            state.isCancelled = true
            return state.task
        }
        task?.cancel()
        onEnd(self)
    }

    /// Starts the load's task, unless the operation was cancelled first.
    func start(_ body: @escaping @Sendable () async -> Void) {
        state.withLockedValue { state in
            guard !state.isCancelled else { return }
            state.task = Task { await body() }
        }
    }

    /// Marks the load finished; returns `false` when it was cancelled instead.
    @discardableResult
    func finish() -> Bool {
        let finished = state.withLockedValue { state -> Bool in
            guard !state.isCancelled, !state.isFinished else { return false }
            state.isFinished = true
            state.task = nil
            return true
        }
        if finished { onEnd(self) }
        return finished
    }
}
