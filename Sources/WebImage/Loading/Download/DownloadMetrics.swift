/// How one download's transfer went: when it started, sent its request, received the
/// response head and ended, how many bytes and redirects it took, and the final status
/// (what SDWebImage reads from `URLSessionTaskMetrics`).
///
/// The times are instants of the continuous clock. The transfer starts when the
/// downloader gives the download a slot, and ends when the last byte of the body (or the
/// failure) arrives; decoding is not part of it. Retries are part of the same transfer:
/// ``requestSent`` and ``responseStart`` are those of the last request sent.
///
/// AsyncHTTPClient does not tell whether a request went over a new connection or a reused
/// one, so the metrics do not either; the wait between ``start`` and ``requestSent``
/// (taking a connection from the pool, opening it and its TLS handshake when it is new)
/// is the closest measure.
public struct DownloadMetrics: Sendable, Hashable {
    /// When the transfer started.
    public var start: ContinuousClock.Instant
    /// When the last request's head was written to a connection; `nil` when no request
    /// was sent.
    public var requestSent: ContinuousClock.Instant?
    /// When the last response head arrived (the first byte of the response); `nil` when
    /// none did.
    public var responseStart: ContinuousClock.Instant?
    /// When the transfer ended.
    public var end: ContinuousClock.Instant
    /// The body bytes received, over every attempt (redirect bodies are not counted).
    public var bytesReceived: Int
    /// How many redirects the transfer followed.
    public var redirectCount: Int
    /// How many attempts the transfer made: 1 unless a retry policy tried again.
    public var attemptCount: Int
    /// The final response's status code (after any response modifier); `nil` when no
    /// response arrived.
    public var statusCode: Int?

    /// Creates metrics.
    public init(
        start: ContinuousClock.Instant,
        requestSent: ContinuousClock.Instant? = nil,
        responseStart: ContinuousClock.Instant? = nil,
        end: ContinuousClock.Instant,
        bytesReceived: Int = 0,
        redirectCount: Int = 0,
        attemptCount: Int = 1,
        statusCode: Int? = nil
    ) {
        self.start = start
        self.requestSent = requestSent
        self.responseStart = responseStart
        self.end = end
        self.bytesReceived = bytesReceived
        self.redirectCount = redirectCount
        self.attemptCount = attemptCount
        self.statusCode = statusCode
    }

    /// The time from the start to the first byte of the last response; `nil` when none
    /// arrived.
    public var timeToFirstByte: Duration? {
        responseStart.map { start.duration(to: $0) }
    }

    /// The time the transfer took in all.
    public var duration: Duration {
        start.duration(to: end)
    }
}
