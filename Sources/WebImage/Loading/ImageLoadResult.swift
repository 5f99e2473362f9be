import Foundation

/// What a loader produced: the decoded image, the bytes it came from and, for HTTP, the response.
public struct ImageLoadResult: Sendable {
    /// The decoded image; `nil` when ``isNotModified`` is `true` or the request asked for
    /// the bytes only (``ImageLoadRequest/decodesImage``).
    public var image: Image?
    /// The bytes as received (empty for a "not modified" answer).
    public var data: Data
    /// The HTTP response, or `nil` for loaders without one (files, `data:` URLs).
    public var response: DownloadResponseHead?
    /// The server answered `304 Not Modified` to the validators given: the cached copy is current.
    public var isNotModified: Bool
    /// How the HTTP transfer went, for results of an ``ImageDownloader``; `nil` for loaders
    /// without a transfer (files, `data:` URLs).
    public var metrics: DownloadMetrics?

    /// Creates a result.
    public init(image: Image?, data: Data, response: DownloadResponseHead? = nil, isNotModified: Bool = false, metrics: DownloadMetrics? = nil) {
        self.image = image
        self.data = data
        self.response = response
        self.isNotModified = isNotModified
        self.metrics = metrics
    }
}
