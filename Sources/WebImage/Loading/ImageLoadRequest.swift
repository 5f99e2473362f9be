import Foundation

/// One caller's request to a loader: the URL, how to download and decode it, and where to
/// report progress.
public struct ImageLoadRequest: Sendable {
    /// Called with `(received bytes, expected bytes or -1)`; the first call is `(0, …)`.
    public typealias Progress = @Sendable (_ received: Int64, _ expected: Int64) -> Void
    /// Called with each partial image of a progressive download.
    public typealias PartialImage = @Sendable (Image) -> Void

    /// The image's URL.
    public var url: URL
    /// How to download.
    public var options: ImageDownloaderOptions
    /// How to decode (thumbnail size, limits); callers sharing a download may differ here.
    public var decodeOptions: ImageDecodeOptions
    /// The cached copy's validators, to revalidate instead of downloading again.
    public var validators: HTTPValidators?
    /// Headers added to (or replacing) the downloader's own for this request; requests
    /// for one URL share a transfer only when these match too.
    public var headers: [String: String]
    /// Progress reports.
    public var progress: Progress?
    /// Partial images, with ``ImageDownloaderOptions/progressiveDownload``.
    public var partialImage: PartialImage?
    /// Whether the loader decodes the bytes. When `false` it delivers the bytes only and
    /// the result's ``ImageLoadResult/image`` is `nil` (for callers that store or forward
    /// the bytes, such as a prefetch into the disk cache).
    public var decodesImage: Bool
    /// How long this caller waits for the transfer in all before its load fails with
    /// `ImageError.Code.deadlineExceeded`; the downloader's
    /// ``ImageDownloaderConfiguration/downloadDeadline`` when `nil`, no deadline when 0 or less.
    /// Callers sharing a transfer keep their own deadlines; the transfer stops when the
    /// last of them gives up.
    public var downloadDeadline: TimeInterval?
    /// Whether and when the download is tried again after a passing failure; the
    /// downloader's ``ImageDownloaderConfiguration/retryPolicy`` when `nil`. Callers sharing a
    /// transfer get the policy with the most attempts among those still waiting.
    public var retryPolicy: DownloadRetryPolicy?
    /// Changes this caller's priority while its download is queued; the downloader attaches
    /// the caller's ``DownloadToken`` to it. The manager's ``ImageLoadOperation`` sets it.
    public var priorityControl: DownloadPriorityControl?
    /// Changes this request's HTTP request before it is sent, instead of the downloader's
    /// ``ImageDownloaderConfiguration/requestModifier``.
    public var requestModifier: DownloadRequestModifier?
    /// Changes this request's response head before it is checked, instead of the
    /// downloader's ``ImageDownloaderConfiguration/responseModifier``.
    public var responseModifier: DownloadResponseModifier?
    /// Turns this request's downloaded body into the bytes that are decoded, instead of the
    /// downloader's ``ImageDownloaderConfiguration/decryptor``.
    public var decryptor: DownloadDecryptor?

    /// Creates a request.
    public init(
        url: URL,
        options: ImageDownloaderOptions = [],
        decodeOptions: ImageDecodeOptions = ImageDecodeOptions(),
        validators: HTTPValidators? = nil,
        headers: [String: String] = [:],
        progress: Progress? = nil,
        partialImage: PartialImage? = nil,
        decodesImage: Bool = true,
        downloadDeadline: TimeInterval? = nil,
        retryPolicy: DownloadRetryPolicy? = nil
    ) {
        self.url = url
        self.options = options
        self.decodeOptions = decodeOptions
        self.validators = validators
        self.headers = headers
        self.progress = progress
        self.partialImage = partialImage
        self.decodesImage = decodesImage
        self.downloadDeadline = downloadDeadline
        self.retryPolicy = retryPolicy
    }
}
