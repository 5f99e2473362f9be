import Dispatch

/// The system's monotonic time; scheduled calls run on a serial dispatch queue.
public struct SystemAnimationClock: AnimationClock {
    private let queue: DispatchQueue

    /// A clock whose calls run on `queue` (a serial queue of its own by default).
    public init(queue: DispatchQueue = DispatchQueue(label: "SwiftWebImage.SystemAnimationClock")) {
        self.queue = queue
    }

    /// Seconds since the system started.
    public var now: Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1_000_000_000
    }

    /// Calls `action` on the clock's queue at `deadline`.
    public func schedule(at deadline: Double, _ action: @escaping @Sendable () -> Void) -> AnimationTimer {
        let timer = AnimationTimer()
        let delay = max(0, deadline - now)
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(delay * 1_000_000_000))) {
            if !timer.isCancelled { action() }
        }
        return timer
    }
}
