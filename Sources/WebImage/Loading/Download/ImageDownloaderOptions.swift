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
