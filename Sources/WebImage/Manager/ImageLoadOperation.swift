import NIOConcurrencyHelpers

/// A running load, as the manager's callback API returns it: cancel it to cancel the
/// cache query and this caller's share of the download.
///
/// Every load answers exactly once (besides the partial images of a progressive load and
/// the cached answer of a refreshing one): with its result, or, when it is cancelled first,
/// with an `ImageError` whose code is `ImageError.Code.cancelled`, as SDWebImage 5 does.
public final class ImageLoadOperation: Sendable {
    private struct State {
        var isCancelled = false
        var isFinished = false
        var task: Task<Void, Never>?
        var cancellationHandler: (@Sendable () -> Void)?
    }

    private let state = NIOLockedValueBox(State())
    /// The priority of the load's download while it waits in the downloader's queue.
    let priorityControl = DownloadPriorityControl()
    private let onEnd: @Sendable (ImageLoadOperation) -> Void
    private let answerCancellation: @Sendable () -> Void

    /// Creates an operation that calls `onEnd` once when it finishes or is cancelled, and
    /// `answerCancellation` once when it is cancelled before it finished.
    init(
        onEnd: @escaping @Sendable (ImageLoadOperation) -> Void,
        answerCancellation: @escaping @Sendable () -> Void = {}
    ) {
        self.onEnd = onEnd
        self.answerCancellation = answerCancellation
    }

    /// A load that ended before it was returned: what every synchronous memory hit returns,
    /// so that answering one allocates no operation.
    static let finished: ImageLoadOperation = {
        let operation = ImageLoadOperation { _ in }
        operation.finish()
        return operation
    }()

    /// Whether ``cancel()`` was called before the load finished.
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

    /// Stops the load. Unless it had already finished, its completion is then called once
    /// more, last, on the callback queue, with `ImageError.Code.cancelled`; answers that
    /// were still on their way are dropped. Calling it again does nothing.
    public func cancel() {
        let (wasRunning, task, handler) = state.withLockedValue { state -> (Bool, Task<Void, Never>?, (@Sendable () -> Void)?) in
            guard !state.isCancelled, !state.isFinished else { return (false, nil, nil) }
            state.isCancelled = true
            defer {
                state.task = nil
                state.cancellationHandler = nil
            }
            return (true, state.task, state.cancellationHandler)
        }
        guard wasRunning else { return }
        task?.cancel()
        onEnd(self)
        handler?()
        answerCancellation()
    }

    /// Runs `handler` on the cancelling thread, before ``cancel()`` returns, if the load is
    /// cancelled before it finishes: how a target answers a cancelled load at once (SDWebImage
    /// answers a main-thread cancel inline), before a following load under its key starts.
    /// A later call replaces the handler; none runs once the load has ended.
    package func onCancel(_ handler: @escaping @Sendable () -> Void) {
        state.withLockedValue { state in
            guard !state.isCancelled, !state.isFinished else { return }
            state.cancellationHandler = handler
        }
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
            state.cancellationHandler = nil
            return true
        }
        if finished { onEnd(self) }
        return finished
    }
}
