import Foundation

/// How fast an ``ImageDownloader`` may start transfers: a token bucket that holds up to
/// ``burst`` starts and refills at ``startsPerSecond``.
///
/// A queued download takes a token when it starts, not when it is asked for, so loads that
/// are cancelled while they wait (a list scrolled past) cost nothing. When the bucket is
/// empty, queued downloads wait for the next token even if a slot is free.
///
/// ```swift
/// var configuration = ImageDownloaderConfiguration()
/// configuration.rateLimit = .standard      // 80 starts a second, bursts of 25, as in Nuke
/// ```
public struct DownloadRateLimit: Sendable, Hashable {
    /// How many starts the bucket gains per second.
    public var startsPerSecond: Double
    /// How many starts the bucket holds: the largest burst after a quiet spell.
    public var burst: Int

    /// Creates a limit; a rate or burst below its minimum counts as that minimum
    /// (one start in a thousand seconds, a burst of one).
    public init(startsPerSecond: Double, burst: Int) {
        self.startsPerSecond = startsPerSecond
        self.burst = burst
    }

    /// 80 starts a second with bursts of 25 (Nuke's default).
    public static let standard = DownloadRateLimit(startsPerSecond: 80, burst: 25)
}
