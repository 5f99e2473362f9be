/// The order an ``AnimatedImagePlayer`` shows frames in.
public enum AnimationPlaybackMode: String, Sendable, CaseIterable {
    /// First frame to last, then again.
    case normal
    /// Last frame to first, then again.
    case reverse
    /// First to last and back: 0, 1, …, n−1, n−2, …, 1, then 0 again.
    case bounce
    /// Last to first and back: n−1, …, 0, 1, …, n−2, then n−1 again.
    case reversedBounce
}
