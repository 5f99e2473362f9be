import NIOConcurrencyHelpers

/// A call an ``AnimationClock`` has scheduled, which can be cancelled until it runs.
public final class AnimationTimer: Sendable {
    private let cancelled = NIOLockedValueBox(false)

    /// Creates a timer that has not been cancelled.
    public init() {}

    /// Stops the call from running, if it has not run yet.
    public func cancel() {
        cancelled.withLockedValue { $0 = true }
    }

    /// Whether ``cancel()`` was called; a clock checks it before running the call.
    public var isCancelled: Bool {
        cancelled.withLockedValue { $0 }
    }
}
