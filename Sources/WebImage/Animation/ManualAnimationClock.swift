import NIOConcurrencyHelpers

/// A clock that moves only when ``advance(by:)`` is called: for tests, and for rendering an
/// animation frame by frame without waiting for real time.
///
/// Scheduled calls run on the thread that advances the clock, in deadline order (calls
/// with equal deadlines in the order they were scheduled), each with ``now`` at its
/// deadline; calls they schedule that fall due within the same advance run too.
public final class ManualAnimationClock: AnimationClock {
    private struct Pending {
        let deadline: Double
        let order: Int
        let timer: AnimationTimer
        let action: @Sendable () -> Void
    }

    private struct State {
        var now: Double = 0
        var pending: [Pending] = []
        var scheduled = 0
    }

    private let state = NIOLockedValueBox(State())

    /// A clock at 0 seconds.
    public init() {}

    /// The clock's current reading.
    public var now: Double {
        state.withLockedValue { $0.now }
    }

    /// Remembers `action` until the clock is advanced to `deadline`.
    public func schedule(at deadline: Double, _ action: @escaping @Sendable () -> Void) -> AnimationTimer {
        let timer = AnimationTimer()
        state.withLockedValue { state in
            state.pending.append(Pending(deadline: deadline, order: state.scheduled, timer: timer, action: action))
            state.scheduled += 1
        }
        return timer
    }

    /// The earliest deadline still scheduled and not cancelled, if any.
    public var nextDeadline: Double? {
        state.withLockedValue { state in
            state.pending.filter { !$0.timer.isCancelled }.map(\.deadline).min()
        }
    }

    /// Moves the clock `seconds` forward, running every call that falls due on the way.
    public func advance(by seconds: Double) {
        let target = state.withLockedValue { $0.now } + seconds
        while true {
            let due: Pending? = state.withLockedValue { state in
                state.pending.removeAll { $0.timer.isCancelled }
                guard
                    let next = state.pending.filter({ $0.deadline <= target })
                        .min(by: { ($0.deadline, $0.order) < ($1.deadline, $1.order) })
                else { return nil }
                state.pending.removeAll { $0.order == next.order }
                state.now = max(state.now, next.deadline)
                return next
            }
            guard let due else { break }
            if !due.timer.isCancelled { due.action() }
        }
        state.withLockedValue { $0.now = max($0.now, target) }
    }
}
