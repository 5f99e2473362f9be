import Dispatch

/// A dispatch queue with a rule for running blocks on it — SDWebImage's `SDCallbackQueue`,
/// for code that hands results to callers and wants SDWebImage's choice of running a
/// block at once when it already is where it should run.
///
/// SDWebImage's fourth policy, "run inline on the main thread, else dispatch to main", has
/// no meaning without a main thread: a process on Linux has none that the library knows.
public final class CallbackQueue: Sendable {
    /// How ``async(_:)`` runs a block.
    public enum Policy: Sendable, Hashable {
        /// At once when the caller is already running on ``CallbackQueue/queue``, else
        /// dispatched to it asynchronously.
        case safeExecute
        /// Always dispatched to ``CallbackQueue/queue`` asynchronously.
        case dispatch
        /// Always at once, on the caller's thread.
        case invoke
    }

    /// The queue blocks run on.
    public let queue: DispatchQueue
    /// How blocks are run.
    public let policy: Policy
    /// Marks ``queue`` (and the queues that target it) so ``safeExecute`` can tell it is on it.
    private let marker = DispatchSpecificKey<Bool>()

    /// A callback queue on `queue` with `policy`. It marks `queue` with a queue-specific
    /// value of its own.
    public init(_ queue: DispatchQueue, policy: Policy = .safeExecute) {
        self.queue = queue
        self.policy = policy
        queue.setSpecific(key: marker, value: true)
    }

    /// A callback queue on a concurrent queue of its own over the global queue of `qos`,
    /// with ``Policy/safeExecute`` (SDWebImage's `globalQueue`; a global queue itself
    /// cannot carry the queue-specific mark).
    public static func global(qos: DispatchQoS.QoSClass = .default) -> CallbackQueue {
        CallbackQueue(DispatchQueue(label: "SwiftWebImage.CallbackQueue.global", attributes: .concurrent, target: .global(qos: qos)))
    }

    /// Whether the calling code runs on ``queue``.
    public var isCurrent: Bool {
        DispatchQueue.getSpecific(key: marker) == true
    }

    /// Runs `block` as ``policy`` says.
    public func async(_ block: @escaping @Sendable () -> Void) {
        switch policy {
        case .safeExecute:
            if isCurrent { block() } else { queue.async(execute: block) }
        case .dispatch:
            queue.async(execute: block)
        case .invoke:
            block()
        }
    }
}
