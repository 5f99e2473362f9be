/// How one download behaves (SDWebImage's `SDWebImageDownloaderOptions`).
public struct ImageDownloaderOptions: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: Int

    /// Creates options from their raw bits.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Queue the download behind normal ones.
    public static let lowPriority = ImageDownloaderOptions(rawValue: 1 << 0)
    /// Decode and deliver partial images while the bytes arrive.
    public static let progressiveDownload = ImageDownloaderOptions(rawValue: 1 << 1)
    /// Let HTTP caching answer (SDWebImage's URL-cache policy).
    ///
    /// The downloader keeps no HTTP cache of its own: the image cache is that cache, and the
    /// validators a request carries (``ImageLoadRequest/validators``) are always sent as a
    /// conditional request. This option changes nothing.
    @available(*, deprecated, message: "validators are always sent; the image cache is the HTTP cache")
    public static let useURLCache = ImageDownloaderOptions(rawValue: 1 << 2)
    /// Call back with no image when the answer came from an HTTP cache.
    ///
    /// With no HTTP cache in the downloader, the only such answer is a `304`, which always
    /// yields a result whose ``ImageLoadResult/isNotModified`` is `true` and whose image is
    /// `nil`. This option changes nothing.
    @available(*, deprecated, message: "a 304 always yields a not-modified result with no image")
    public static let ignoreCachedResponse = ImageDownloaderOptions(rawValue: 1 << 3)
    /// Keep downloading while an app is in the background. Linux has no background state
    /// for a process, so this option changes nothing.
    @available(*, deprecated, message: "Linux has no background state; downloads always continue")
    public static let continueInBackground = ImageDownloaderOptions(rawValue: 1 << 4)
    /// Send the downloader's cookies for the URL and store the cookies the server sets.
    public static let handleCookies = ImageDownloaderOptions(rawValue: 1 << 5)
    /// Skip TLS certificate verification for this download. For testing only.
    public static let allowInvalidSSLCertificates = ImageDownloaderOptions(rawValue: 1 << 6)
    /// Start ahead of queued normal downloads.
    public static let highPriority = ImageDownloaderOptions(rawValue: 1 << 7)
    /// Decode large images at a size that fits ``ImageDownloaderConfiguration/scaleDownLimitBytes``
    /// (ignored for partial images).
    public static let scaleDownLargeImages = ImageDownloaderOptions(rawValue: 1 << 8)

    /// The options that change the request itself, so two callers share one transfer
    /// only when they agree on them.
    static let transferOptions: ImageDownloaderOptions = [.handleCookies, .allowInvalidSSLCertificates]

    /// The queue priority these options ask for.
    var priority: DownloadPriority {
        if contains(.highPriority) { return .high }
        if contains(.lowPriority) { return .low }
        return .normal
    }
}
