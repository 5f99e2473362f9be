import Foundation

/// Everything one load asks for: the URL, the options and the typed per-request settings
/// that SDWebImage kept in a string-keyed context dictionary.
public struct ImageRequest: Sendable {
    /// Maps a URL to the key its image is cached under.
    public typealias CacheKeyFilter = @Sendable (URL) -> String

    /// The image's URL; `nil` (or an empty URL) fails at once with `ImageError.Code.invalidURL`.
    public var url: URL?
    /// How the load behaves.
    public var options: ImageOptions
    /// Decode to fit this size (in pixels) instead of the full size; cached under its own key.
    public var thumbnailPixelSize: PixelSize?
    /// With ``thumbnailPixelSize``: fit inside it (`true`) or fill it exactly (`false`).
    public var preserveAspectRatio: Bool
    /// The pixel-memory budget for ``ImageOptions/scaleDownLargeImages`` (60 MB by default,
    /// as in SDWebImage).
    public var scaleDownLimitBytes: Int
    /// The most pixels one frame of the image may have; larger images fail with
    /// `ImageError.Code.imageTooLarge` before their pixels are allocated.
    public var maxPixelCount: Int = ImageDecodeOptions.defaultMaxPixelCount
    /// Changes the image before it is cached; overrides the manager's transformer.
    public var transformer: (any ImageTransformer)? {
        get { extras?.transformer }
        set { changeExtras { $0.transformer = newValue } }
    }
    /// Maps the URL to its cache key; overrides the manager's filter.
    public var cacheKeyFilter: CacheKeyFilter? {
        get { extras?.cacheKeyFilter }
        set { changeExtras { $0.cacheKeyFilter = newValue } }
    }
    /// The queue completions and progress are delivered on; the manager's when `nil`.
    public var callbackQueue: DispatchQueue? {
        get { extras?.callbackQueue }
        set { changeExtras { $0.callbackQueue = newValue } }
    }
    /// The operation key of the target that started this load (SDWebImage's
    /// `setImageOperationKey` context option), set by the target's `setImage`, so that an
    /// ``ImageManager/optionsProcessor`` can tell a target's loads apart; `nil` for a load
    /// started on the manager. It changes nothing else.
    public var operationKey: String?
    /// Headers added to this request's HTTP request.
    public var headers: [String: String]
    /// Which cache levels are asked before loading.
    public var queryCacheType: ImageCacheType
    /// Which cache levels receive the loaded image (``ImageOptions/cacheMemoryOnly`` narrows it to memory).
    public var storeCacheType: ImageCacheType
    /// Where the untransformed original is stored too, when a transformer or thumbnail
    /// changed the image: the disk by default, as in SDWebImage 5, so a later load of
    /// another size or transformer of the same URL needs no download. An original that
    /// came from the cache is not stored again.
    public var originalStoreCacheType: ImageCacheType
    /// Which levels are asked for the untransformed, full-size original when the
    /// transformed or thumbnail key misses (``ImageCacheType/disk`` by default, as in
    /// SDWebImage; ``ImageCacheType/none`` skips the step). A hit is decoded at the
    /// thumbnail size, transformed and stored under the derived key, and answers without a
    /// download; the original's entry is left as it is.
    public var originalQueryCacheType: ImageCacheType
    /// How long the download may take in all before the load fails with
    /// `ImageError.Code.deadlineExceeded`; the downloader's
    /// ``ImageDownloaderConfiguration/downloadDeadline`` when `nil`.
    public var downloadDeadline: TimeInterval? {
        get { extras?.downloadDeadline }
        set { changeExtras { $0.downloadDeadline = newValue } }
    }
    /// Whether and when the download is tried again after a passing failure; the
    /// downloader's ``ImageDownloaderConfiguration/retryPolicy`` when `nil`.
    public var retryPolicy: DownloadRetryPolicy? {
        get { extras?.retryPolicy }
        set { changeExtras { $0.retryPolicy = newValue } }
    }
    /// The handle of the load's ``ImageLoadOperation`` for changing its download's priority.
    var priorityControl: DownloadPriorityControl? {
        get { extras?.priorityControl }
        set { changeExtras { $0.priorityControl = newValue } }
    }
    /// The scale the image is decoded at, overriding the `@2x`/`@3x` its cache key names
    /// (SDWebImage's `imageScaleFactor`); values below 1 are ignored.
    public var scaleFactor: Double? {
        get { extras?.scaleFactor }
        set { changeExtras { $0.scaleFactor = newValue } }
    }
    /// Turns the downloaded image into the bytes stored on disk for it, overriding the
    /// manager's ``ImageManager/cacheSerializer``.
    public var cacheSerializer: ImageManager.CacheSerializer? {
        get { extras?.cacheSerializer }
        set { changeExtras { $0.cacheSerializer = newValue } }
    }
    /// Settings for particular coders, handed to whichever coder decodes this request's
    /// image — from the network or from the disk cache — in
    /// `ImageDecodeOptions/coderOptions` (SDWebImage's `imageDecodeOptions`). They do not
    /// change the cache key.
    public var coderOptions: ImageCoderOptions {
        get { extras?.coderOptions ?? ImageCoderOptions() }
        set { changeExtras { $0.coderOptions = newValue } }
    }
    /// The cache this load reads and stores its final image in, instead of the manager's
    /// ``ImageManager/cache`` (SDWebImage's `imageCache` context option).
    public var cache: (any ImageCaching)? {
        get { extras?.cache }
        set { changeExtras { $0.cache = newValue } }
    }
    /// The cache the untransformed original goes to when a transformer or thumbnail changed
    /// the image (see ``originalStoreCacheType``); ``cache`` (or the manager's) when `nil`
    /// (SDWebImage's `originalImageCache`).
    public var originalCache: (any ImageCaching)? {
        get { extras?.originalCache }
        set { changeExtras { $0.originalCache = newValue } }
    }
    /// Changes this load's HTTP request before it is sent, instead of the downloader's
    /// (SDWebImage's `downloadRequestModifier` context option).
    public var requestModifier: DownloadRequestModifier? {
        get { extras?.requestModifier }
        set { changeExtras { $0.requestModifier = newValue } }
    }
    /// Changes this load's HTTP response head before it is checked, instead of the
    /// downloader's (SDWebImage's `downloadResponseModifier`).
    public var responseModifier: DownloadResponseModifier? {
        get { extras?.responseModifier }
        set { changeExtras { $0.responseModifier = newValue } }
    }
    /// Turns this load's downloaded body into the bytes that are decoded, instead of the
    /// downloader's (SDWebImage's `downloadDecryptor`).
    public var decryptor: DownloadDecryptor? {
        get { extras?.decryptor }
        set { changeExtras { $0.decryptor = newValue } }
    }

    /// The settings most requests leave alone, allocated when the first of them is set and
    /// shared by copies of the request until one changes them: a request copies and ends
    /// as a few words, not thirty fields of closures and existentials.
    private var extras: Extras?

    /// Whether every rarely set setting (transformer, cache key filter, caches, coder
    /// options, modifiers…) has its default, which the memory hit asks once instead of
    /// copying each.
    var leavesRareSettingsAlone: Bool { extras == nil }

    /// Creates a request.
    public init(
        url: URL?,
        options: ImageOptions = [],
        thumbnailPixelSize: PixelSize? = nil,
        preserveAspectRatio: Bool = true,
        scaleDownLimitBytes: Int = 60 << 20,
        transformer: (any ImageTransformer)? = nil,
        cacheKeyFilter: CacheKeyFilter? = nil,
        callbackQueue: DispatchQueue? = nil,
        headers: [String: String] = [:],
        queryCacheType: ImageCacheType = .all,
        storeCacheType: ImageCacheType = .all,
        originalStoreCacheType: ImageCacheType = .disk,
        originalQueryCacheType: ImageCacheType = .disk
    ) {
        self.url = url
        self.options = options
        self.thumbnailPixelSize = thumbnailPixelSize
        self.preserveAspectRatio = preserveAspectRatio
        self.scaleDownLimitBytes = scaleDownLimitBytes
        self.headers = headers
        self.queryCacheType = queryCacheType
        self.storeCacheType = storeCacheType
        self.originalStoreCacheType = originalStoreCacheType
        self.originalQueryCacheType = originalQueryCacheType
        extras = Extras.holding(transformer: transformer, cacheKeyFilter: cacheKeyFilter, callbackQueue: callbackQueue)
    }

    /// A request for a URL given as a string: an unparsable or empty string makes a request
    /// that fails with `ImageError.Code.invalidURL` (SDWebImage's "string instead of URL" guard).
    public init(string: String, options: ImageOptions = []) {
        self.init(url: string.isEmpty ? nil : URL(string: string), options: options)
    }

    /// How the loaded bytes are decoded for this request.
    var decodeOptions: ImageDecodeOptions {
        var decode = ImageDecodeOptions()
        decode.thumbnailPixelSize = thumbnailPixelSize
        decode.preserveAspectRatio = preserveAspectRatio
        decode.firstFrameOnly = options.contains(.decodeFirstFrameOnly)
        decode.maxPixelCount = maxPixelCount
        decode.scaleFactor = scaleFactor.flatMap { $0 >= 1 ? $0 : nil }
        decode.decodesFramesOnDemand = options.contains(.decodeFramesOnDemand)
        decode.requiresFramesOnDemand = options.contains(.matchAnimatedImageClass)
        decode.coderOptions = coderOptions
        if options.contains(.scaleDownLargeImages) {
            decode.scaleDownLimitBytes = scaleDownLimitBytes
        }
        return decode
    }

    /// Changes the rarely set settings through `change`, allocating them first, or copying
    /// them when another request shares them.
    private mutating func changeExtras(_ change: (Extras) -> Void) {
        if !isKnownUniquelyReferenced(&extras) {
            extras = Extras(copying: extras)
        }
        if let extras {
            change(extras)
        }
    }
}
