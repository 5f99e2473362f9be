/// The time an ``AnimatedImagePlayer`` plays by: a reading of seconds and a way to be
/// called back at a deadline.
///
/// ``SystemAnimationClock`` follows the system's monotonic time; ``ManualAnimationClock``
/// moves only when told to, for tests and for rendering frames off-line.
public protocol AnimationClock: Sendable {
    /// Seconds since a fixed point; never decreases.
    var now: Double { get }

    /// Calls `action` once when ``now`` reaches `deadline` (soon, when it already has),
    /// unless the returned timer is cancelled first. `action` runs on the clock's own
    /// thread, never while the caller holds a lock the clock knows of.
    func schedule(at deadline: Double, _ action: @escaping @Sendable () -> Void) -> AnimationTimer
}
