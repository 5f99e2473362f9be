import Foundation

/// How an ``ImageDownloader`` behaves (SDWebImage's `SDWebImageDownloaderConfig`).
///
/// The downloader copies the configuration when it is created; only
/// ``ImageDownloader/maxConcurrentDownloads`` and ``ImageDownloader/isSuspended`` change
/// later.
public struct ImageDownloaderConfiguration: Sendable {
    /// How many transfers run at once. A transfer's slot is freed as soon as its body is
    /// in, so decoding does not hold it.
    public var maxConcurrentDownloads = 6
    /// How long a connection may take to open, and how long a response may stay silent,
    /// before the download fails with `ImageError.Code.timedOut`; 0 or less means 15 s.
    public var downloadTimeout: TimeInterval = 15
    /// How long a download may take in all, from the start of its transfer to the end of
    /// its body (redirects included), however steadily data arrives, before it fails with
    /// `ImageError.Code.deadlineExceeded`; 0 or less means no deadline. A request may
    /// set its own (``ImageLoadRequest/downloadDeadline``).
    public var downloadDeadline: TimeInterval = 60
    /// The slowest a transfer may average once its grace period is over, before it fails
    /// with `ImageError.Code.timedOut`; `nil`, the default, measures no rate (only silence,
    /// ``downloadTimeout``, and the whole, ``downloadDeadline``).
    public var minimumTransferRate: DownloadTransferRate?
    /// Whether and when a download that failed for a passing reason is tried again; a
    /// request may set its own (``ImageLoadRequest/retryPolicy``). Never, by default.
    public var retryPolicy = DownloadRetryPolicy.never
    /// How many bytes of partly received bodies the downloader keeps at most, across all
    /// transfers, so that a retry asks for the rest only (`Range` with `If-Range`) when the
    /// response allowed it; a part that does not fit is dropped and the retry downloads the
    /// whole body. 0 never resumes.
    public var maximumResumableBytes = 32 << 20
    /// How fast transfers may start (a token bucket); `nil`, the default, starts them as
    /// fast as slots free up.
    public var rateLimit: DownloadRateLimit?
    /// Which queued download starts next among those of one priority.
    public var executionOrder = DownloadExecutionOrder.fifo
    /// Headers sent with every request. The default `Accept` names the formats the
    /// shared coders manager decodes when the configuration is created
    /// (`ImageCodersManager.acceptHeaderValue`).
    public var httpHeaders: [String: String] = [
        "Accept": ImageCodersManager.shared.acceptHeaderValue
    ]
    /// Changes each request before it is sent (SDWebImage's `requestModifier`, formerly
    /// `headersFilter`), for requests that set no ``ImageLoadRequest/requestModifier``.
    public var requestModifier: DownloadRequestModifier?
    /// Changes each final response head before it is checked (SDWebImage's
    /// `responseModifier`), for requests that set no ``ImageLoadRequest/responseModifier``.
    public var responseModifier: DownloadResponseModifier?
    /// Turns each downloaded body into the bytes that are decoded (SDWebImage's
    /// `decryptor`), for requests that set no ``ImageLoadRequest/decryptor``.
    public var decryptor: DownloadDecryptor?
    /// The user name for HTTP Basic authentication; sent only to the URL's own origin.
    public var username: String?
    /// The password for HTTP Basic authentication.
    public var password: String?
    /// The status codes that count as success; `304` is always read as "not modified". Any
    /// other status fails the download with `ImageError.Code.invalidStatusCode`, whose
    /// `ImageError.response` carries the response head.
    public var acceptableStatusCodes = 200..<300
    /// The acceptable media types, lowercased and without parameters (such as
    /// `image/png`); `nil` accepts any. Another type fails the download with
    /// `ImageError.Code.badContentType`, whose `ImageError.response` carries the response
    /// head.
    public var acceptableContentTypes: Set<String>?
    /// The smallest change of progress, as a fraction of the expected size (0…1), that
    /// triggers a progress report or a partial decode. 0 reports every chunk.
    public var minimumProgressInterval: Double = 0
    /// The largest response body accepted; larger ones fail with
    /// `ImageError.Code.responseTooLarge` without being buffered.
    public var maximumResponseSize = 64 << 20
    /// How many redirects one download may follow.
    public var maximumRedirects = 10
    /// Checks every URL a download connects to (the first and each redirect's target) and
    /// names the address to connect to; `nil`, the default, lets the HTTP client resolve
    /// names itself. With a gate, each connection is made to the address it returned.
    public var addressGate: DownloadAddressGate?
    /// The pixel memory budget of ``ImageDownloaderOptions/scaleDownLargeImages``.
    public var scaleDownLimitBytes = 60 << 20
    /// Where the downloader sends its logs and metrics; the process-wide backends by
    /// default (see ``Telemetry``).
    public var telemetry = Telemetry()
    /// The coders that decode the downloaded bytes.
    public var coders = ImageCodersManager.shared
    /// The queue callbacks of the callback API run on unless the caller names one.
    /// A global concurrent queue, so the main queue need not be serviced.
    public var callbackQueue = DispatchQueue.global(qos: .userInitiated)

    /// The default configuration.
    public init() {}
}
