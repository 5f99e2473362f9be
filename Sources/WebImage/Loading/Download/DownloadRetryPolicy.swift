import Foundation

/// When and how soon a download that failed for a passing reason is tried again.
///
/// Only transient failures are retried: a timeout, a refused or lost connection (including
/// a body cut off midway), and the statuses 408, 429, 502, 503 and 504. Any other failure,
/// every other 4xx and 5xx among them, ends the download at once. The wait before attempt
/// *n + 1* grows exponentially, ``initialDelay`` × ``backoffMultiplier``^(*n* − 1) capped at
/// ``maximumDelay``, less a random share of up to ``jitter`` of it so that many clients do
/// not come back in step. A `Retry-After` header (seconds or an HTTP date) on the failed
/// response replaces that wait; when it asks for more than ``maximumRetryAfter`` the
/// download fails instead of waiting that long.
///
/// ```swift
/// var configuration = ImageDownloaderConfiguration()
/// configuration.retryPolicy = .transientFailures            // up to 3 attempts
/// var request = ImageLoadRequest(url: url)
/// request.retryPolicy = DownloadRetryPolicy(maximumAttempts: 5, initialDelay: 1)
/// ```
public struct DownloadRetryPolicy: Sendable, Hashable {
    /// How many times a download is tried in all, the first time included; 1 or less
    /// never retries.
    public var maximumAttempts: Int
    /// The wait before the second attempt, in seconds.
    public var initialDelay: TimeInterval
    /// What each further wait is multiplied by.
    public var backoffMultiplier: Double
    /// The longest wait between two attempts that backoff produces, in seconds.
    public var maximumDelay: TimeInterval
    /// The largest share (0…1) of a backoff wait taken off at random.
    public var jitter: Double
    /// The longest `Retry-After` honoured, in seconds; a longer one ends the download.
    public var maximumRetryAfter: TimeInterval

    /// Creates a policy.
    public init(
        maximumAttempts: Int = 3,
        initialDelay: TimeInterval = 0.5,
        backoffMultiplier: Double = 2,
        maximumDelay: TimeInterval = 10,
        jitter: Double = 0.25,
        maximumRetryAfter: TimeInterval = 30
    ) {
        self.maximumAttempts = maximumAttempts
        self.initialDelay = initialDelay
        self.backoffMultiplier = backoffMultiplier
        self.maximumDelay = maximumDelay
        self.jitter = jitter
        self.maximumRetryAfter = maximumRetryAfter
    }

    /// One attempt only: the downloader's default, as in SDWebImage and Nuke.
    public static let never = DownloadRetryPolicy(maximumAttempts: 1)

    /// Up to three attempts, waiting about 0.5 s then 1 s.
    public static let transientFailures = DownloadRetryPolicy()

    /// The statuses that say "try again later".
    public static let transientStatusCodes: Set<Int> = [408, 429, 502, 503, 504]

    /// Whether `error` is a failure worth another attempt.
    public func isTransient(_ error: ImageError) -> Bool {
        switch error.code {
        case .timedOut, .cannotConnect, .connectionLost:
            return true
        case .invalidStatusCode:
            return error.statusCode.map(Self.transientStatusCodes.contains) ?? false
        default:
            return false
        }
    }

    /// How long to wait before attempt `attempt + 1`, after attempt `attempt` (1 for the
    /// first) failed; `nil` when no attempt is left or the server asks to wait longer than
    /// ``maximumRetryAfter``. `retryAfter` is the failed response's `Retry-After` value.
    func delay(afterAttempt attempt: Int, retryAfter: String?, now: Date = Date()) -> TimeInterval? {
        guard attempt < maximumAttempts else { return nil }
        if let retryAfter, let wait = Self.seconds(inRetryAfter: retryAfter, now: now) {
            return wait <= maximumRetryAfter ? wait : nil
        }
        let exponent = Double(max(attempt - 1, 0))
        let backoff = min(max(initialDelay, 0) * pow(max(backoffMultiplier, 1), exponent), max(maximumDelay, 0))
        let share = min(max(jitter, 0), 1) * Double.random(in: 0..<1)
        return backoff * (1 - share)
    }

    /// The wait a `Retry-After` value asks for: whole seconds, or an HTTP date (a date in
    /// the past asks for none); `nil` when the value is neither.
    static func seconds(inRetryAfter value: String, now: Date) -> TimeInterval? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            return TimeInterval(text) ?? .infinity
        }
        guard let date = HTTPDate.date(from: text) else { return nil }
        return max(date.timeIntervalSince(now), 0)
    }
}
