import Foundation

/// How one image load behaves: SDWebImage's `SDWebImageOptions`.
public struct ImageOptions: OptionSet, Sendable, Hashable {
    /// The options' bits.
    public let rawValue: Int

    /// Creates options from their bits.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Try a URL that failed before instead of refusing it from the blacklist; a success
    /// removes it from the blacklist.
    public static let retryFailed = ImageOptions(rawValue: 1 << 0)
    /// Queue the download behind normal ones.
    public static let lowPriority = ImageOptions(rawValue: 1 << 1)
    /// Keep the image in memory only, never on disk.
    public static let cacheMemoryOnly = ImageOptions(rawValue: 1 << 2)
    /// Deliver partial images while the bytes arrive (`finished == false`), then the final one.
    public static let progressiveDownload = ImageOptions(rawValue: 1 << 3)
    /// Revalidate a cached image with the server (ETag / Last-Modified): the cached image
    /// is delivered first, then the new one only if the server sends a changed image.
    public static let refreshCached = ImageOptions(rawValue: 1 << 4)
    /// Send and store cookies with the image request.
    public static let handleCookies = ImageOptions(rawValue: 1 << 6)
    /// Skip TLS certificate verification for this request (for testing only).
    public static let allowInvalidSSLCertificates = ImageOptions(rawValue: 1 << 7)
    /// Start the download before queued normal ones.
    public static let highPriority = ImageOptions(rawValue: 1 << 8)
    /// Show the placeholder only after the load ends without an image.
    public static let delayPlaceholder = ImageOptions(rawValue: 1 << 9)
    /// Run the transformer on animated images too.
    public static let transformAnimatedImage = ImageOptions(rawValue: 1 << 10)
    /// Leave the target untouched and hand the image to the completion only.
    public static let avoidAutoSetImage = ImageOptions(rawValue: 1 << 11)
    /// Decode large images at a size that fits the memory budget.
    public static let scaleDownLargeImages = ImageOptions(rawValue: 1 << 12)
    /// Answer from the cache only; never download.
    public static let fromCacheOnly = ImageOptions(rawValue: 1 << 13)
    /// Skip the cache query and always download.
    public static let fromLoaderOnly = ImageOptions(rawValue: 1 << 14)
    /// Decode only the first frame of animated images.
    public static let decodeFirstFrameOnly = ImageOptions(rawValue: 1 << 15)
    /// Keep an animated image's bytes and decode its frames as they play: the image holds
    /// its poster and an `AnimatedImage` (`Image/animation`) for an
    /// ``AnimatedImagePlayer``, instead of every frame (SDWebImage's `animatedImageClass`).
    /// A memory-cache entry decoded whole still answers such a request, unless
    /// ``matchAnimatedImageClass`` is set too.
    public static let decodeFramesOnDemand = ImageOptions(rawValue: 1 << 16)
    /// With ``decodeFramesOnDemand``: a memory-cache entry holding an animation decoded
    /// whole is a miss, so the image is always one that decodes its frames as they play
    /// (SDWebImage's `SDWebImageMatchAnimatedImageClass`).
    public static let matchAnimatedImageClass = ImageOptions(rawValue: 1 << 17)
    /// On a memory miss, read and decode the disk entry on the calling thread (which it
    /// blocks), so that a disk hit answers — and a target shows it — before `loadImage` or
    /// `setImage` returns, as a memory hit does (SDWebImage's `queryDiskDataSync`, which
    /// avoids a cell flashing its placeholder). Do not use it on an event loop or in an
    /// `async` context.
    public static let queryDiskDataSync = ImageOptions(rawValue: 1 << 18)
    /// For a target: a new load under the same operation key does not cancel this one; it
    /// still answers its completion, but the target shows the newer load (SDWebImage's
    /// `avoidAutoCancelImage`).
    public static let avoidAutoCancelImage = ImageOptions(rawValue: 1 << 19)

    /// Every option with its name, as the command-line tool spells them.
    public static let named: [(name: String, option: ImageOptions)] = [
        ("retryFailed", .retryFailed), ("lowPriority", .lowPriority), ("cacheMemoryOnly", .cacheMemoryOnly),
        ("progressiveDownload", .progressiveDownload), ("refreshCached", .refreshCached),
        ("handleCookies", .handleCookies),
        ("allowInvalidSSLCertificates", .allowInvalidSSLCertificates), ("highPriority", .highPriority),
        ("delayPlaceholder", .delayPlaceholder), ("transformAnimatedImage", .transformAnimatedImage),
        ("avoidAutoSetImage", .avoidAutoSetImage), ("scaleDownLargeImages", .scaleDownLargeImages),
        ("fromCacheOnly", .fromCacheOnly), ("fromLoaderOnly", .fromLoaderOnly),
        ("decodeFirstFrameOnly", .decodeFirstFrameOnly), ("decodeFramesOnDemand", .decodeFramesOnDemand),
        ("matchAnimatedImageClass", .matchAnimatedImageClass), ("queryDiskDataSync", .queryDiskDataSync),
        ("avoidAutoCancelImage", .avoidAutoCancelImage),
    ]

    /// The options named in a comma-separated list such as `"retryFailed,refreshCached"`;
    /// `nil` when a name is unknown.
    public init?(names: String) {
        var options: ImageOptions = []
        for name in names.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
            guard let entry = ImageOptions.named.first(where: { $0.name == name }) else { return nil }
            options.insert(entry.option)
        }
        self = options
    }

    /// The names of the options in this set, in declaration order.
    public var names: [String] {
        ImageOptions.named.filter { contains($0.option) }.map(\.name)
    }
}
