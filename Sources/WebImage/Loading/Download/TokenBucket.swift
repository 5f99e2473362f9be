import NIOCore

/// The state of a ``DownloadRateLimit``: tokens left and when they were last counted. The
/// caller passes the time, so tests can drive it without a clock.
struct TokenBucket {
    private let rate: Double
    private let capacity: Double
    private var tokens: Double
    private var countedAt: NIODeadline

    /// A full bucket for `limit` at `now`.
    init(_ limit: DownloadRateLimit, now: NIODeadline) {
        rate = max(limit.startsPerSecond, 0.001)
        capacity = Double(max(limit.burst, 1))
        tokens = capacity
        countedAt = now
    }

    /// Takes a token at `now`; returns `nil` when it got one, or how long until the next.
    mutating func take(at now: NIODeadline) -> TimeAmount? {
        let elapsed = Double(max((now - countedAt).nanoseconds, 0)) / 1e9
        tokens = min(capacity, tokens + elapsed * rate)
        countedAt = max(countedAt, now)
        if tokens >= 1 {
            tokens -= 1
            return nil
        }
        return .nanoseconds(Int64(((1 - tokens) / rate * 1e9).rounded(.up)))
    }
}
