import Foundation
import NIOConcurrencyHelpers
import Synchronization

/// Loads images: from memory, from disk, or from the network once however many callers
/// ask — SDWebImage's `SDWebImageManager`.
///
/// A load computes the cache key, refuses blacklisted URLs, asks the cache (memory at once,
/// disk on the cache's I/O queue), downloads on a miss through its ``loader``, transforms,
/// stores, and answers. The `async` API (``image(for:)``, ``events(for:)``) and the
/// callback API (``loadImage(with:progress:completion:)``) share that one engine.
public final class ImageManager: Sendable {
    /// Decides whether a URL missing from the cache may be downloaded.
    public typealias ShouldDownload = @Sendable (URL) -> Bool
    /// Decides whether a failed URL is blacklisted, overriding the loader's rule.
    public typealias ShouldBlockFailedURL = @Sendable (URL, ImageError) -> Bool
    /// Turns a loaded image into the bytes stored on disk for it (SDWebImage's
    /// `SDWebImageCacheSerializer`): given the image, the downloaded bytes (`nil` for a
    /// transformed image or a thumbnail) and the URL; `nil` lets the cache encode the image.
    public typealias CacheSerializer = @Sendable (_ image: Image, _ data: Data?, _ url: URL) -> Data?
    /// Rewrites a request before it loads (SDWebImage's `SDWebImageOptionsProcessor`).
    public typealias OptionsProcessor = @Sendable (ImageRequest) -> ImageRequest

    struct Settings {
        var shouldDownload: ShouldDownload?
        var shouldBlockFailedURL: ShouldBlockFailedURL?
        var transformer: (any ImageTransformer)?
        var cacheKeyFilter: ImageRequest.CacheKeyFilter?
        var cacheSerializer: CacheSerializer?
        var optionsProcessor: OptionsProcessor?
        var callbackQueue = DispatchQueue.global(qos: .userInitiated)
        /// The three settings a load reads before it asks the cache, as they were last
        /// changed; `nil` while none is set.
        var keySettings: KeySettings?
    }

    /// The settings a load reads before it asks the cache, as one object that a load takes
    /// under the lock with a single retain: the synchronous memory hit is benchmarked.
    final class KeySettings: Sendable {
        let optionsProcessor: OptionsProcessor?
        let cacheKeyFilter: ImageRequest.CacheKeyFilter?
        let transformer: (any ImageTransformer)?

        /// The key settings of `settings`; `nil` when none is set.
        static func of(_ settings: Settings) -> KeySettings? {
            guard settings.optionsProcessor != nil || settings.cacheKeyFilter != nil || settings.transformer != nil else {
                return nil
            }
            return KeySettings(settings)
        }

        private init(_ settings: Settings) {
            optionsProcessor = settings.optionsProcessor
            cacheKeyFilter = settings.cacheKeyFilter
            transformer = settings.transformer
        }
    }

    /// The manager of the shared cache and the shared loaders.
    public static let shared = ImageManager()

    /// Where images are cached, for requests that name no ``ImageRequest/cache``: an
    /// ``ImageCache``, an ``ImageCachesManager`` or any other ``ImageCaching``.
    public let cache: any ImageCaching
    /// What loads images missing from the cache (HTTP, files, `data:` URLs).
    public let loader: any ImageLoader
    /// ``cache`` when it is an ``ImageCache``: the synchronous memory hit calls it directly,
    /// without going through the protocol.
    let imageCache: ImageCache?

    let failedURLs = FailedURLSet()
    private let settings = NIOLockedValueBox(Settings())
    /// Whether any of the key settings is set, read without the lock: most managers set
    /// none, and every load reads them.
    let keySettingsAreSet = Atomic<Bool>(false)
    private let running = NIOLockedValueBox([ObjectIdentifier: ImageLoadOperation]())

    /// The manager's logs and metrics.
    let telemetry: ManagerTelemetry

    /// Creates a manager on a cache (or several behind an ``ImageCachesManager``) and a
    /// loader, sending its logs and metrics where `telemetry` says (the process-wide
    /// backends by default).
    public init(cache: any ImageCaching = ImageCache.shared, loader: any ImageLoader = ImageLoadersManager.shared, telemetry: Telemetry = Telemetry()) {
        self.cache = cache
        self.loader = loader
        self.telemetry = ManagerTelemetry(telemetry)
        imageCache = cache as? ImageCache
    }

    /// The cache `request`'s final image is read from and stored in.
    func cache(for request: ImageRequest) -> any ImageCaching {
        request.cache ?? cache
    }

    /// Called before downloading an image the cache does not have; returning `false`
    /// ends the load with no image and no error (SDWebImage's delegate method).
    public var shouldDownload: ShouldDownload? {
        get { settings.withLockedValue { $0.shouldDownload } }
        set { settings.withLockedValue { $0.shouldDownload = newValue } }
    }

    /// Decides which failures blacklist a URL; the loader's rule (everything but
    /// transient network failures and cancellation) when `nil`.
    public var shouldBlockFailedURL: ShouldBlockFailedURL? {
        get { settings.withLockedValue { $0.shouldBlockFailedURL } }
        set { settings.withLockedValue { $0.shouldBlockFailedURL = newValue } }
    }

    /// The transformer for requests that name none.
    public var transformer: (any ImageTransformer)? {
        get { settings.withLockedValue { $0.transformer } }
        set { changeKeySettings { $0.transformer = newValue } }
    }

    /// What is stored on disk for a loaded image, for requests that name no serializer; the
    /// downloaded bytes as they came (and an encoding of a transformed image) when `nil`.
    /// It runs on the decoding threads, only for stores that reach the disk.
    public var cacheSerializer: CacheSerializer? {
        get { settings.withLockedValue { $0.cacheSerializer } }
        set { settings.withLockedValue { $0.cacheSerializer = newValue } }
    }

    /// One place that rewrites every request before it loads — its options, thumbnail
    /// size, transformer, caches, headers — by URL or anything else it carries: every
    /// `loadImage`, `image(for:)`, `events(for:)`, prefetch and target load goes through it
    /// first. Requests load as given when `nil`.
    public var optionsProcessor: OptionsProcessor? {
        get { settings.withLockedValue { $0.optionsProcessor } }
        set { changeKeySettings { $0.optionsProcessor = newValue } }
    }

    /// `request` as the ``optionsProcessor`` rewrites it.
    func processed(_ request: ImageRequest) -> ImageRequest {
        guard let processor = keySettings?.optionsProcessor else { return request }
        return processor(request)
    }

    /// The key settings as they are now, read under the lock; `nil` when none is set.
    var keySettings: KeySettings? {
        guard keySettingsAreSet.load(ordering: .acquiring) else { return nil }
        return settings.withLockedValue { $0.keySettings }
    }

    /// Changes a key setting under the lock and records whether any is set.
    private func changeKeySettings(_ change: (inout Settings) -> Void) {
        settings.withLockedValue {
            change(&$0)
            $0.keySettings = KeySettings.of($0)
            keySettingsAreSet.store($0.keySettings != nil, ordering: .releasing)
        }
    }

    /// The cache key filter for requests that name none.
    public var cacheKeyFilter: ImageRequest.CacheKeyFilter? {
        get { settings.withLockedValue { $0.cacheKeyFilter } }
        set { changeKeySettings { $0.cacheKeyFilter = newValue } }
    }

    /// Where the callback API delivers for requests that name no queue. A global queue by
    /// default: on Linux the main queue runs only in programs that service it (`dispatchMain()`
    /// or a run loop); such programs, and view code, set it to `.main`.
    public var callbackQueue: DispatchQueue {
        get { settings.withLockedValue { $0.callbackQueue } }
        set { settings.withLockedValue { $0.callbackQueue = newValue } }
    }

    /// The cache key of `url`: the filter's answer when one is set, else its absolute string;
    /// empty for no URL.
    public func cacheKey(for url: URL?) -> String {
        guard let url else { return "" }
        return cacheKeyFilter.map { $0(url) } ?? url.absoluteString
    }

    /// The key `request`'s image is cached under: the URL's key, marked with the thumbnail
    /// size and the transformer's key when the request has them (as SDWebImage does).
    public func cacheKey(for request: ImageRequest) -> String {
        guard let url = request.url else { return "" }
        let keySettings = self.keySettings
        return cacheKey(for: request, url: url, absoluteString: url.absoluteString, settings: keySettings)
    }

    /// ``cacheKey(for:)`` from settings already read and the URL's absolute string already
    /// computed: the synchronous memory hit reads each once.
    func cacheKey(for request: ImageRequest, url: URL, absoluteString: String, settings: KeySettings?) -> String {
        // Most keys are the URL: asked first, without copying a filter or transformer.
        if request.leavesRareSettingsAlone, settings == nil, request.thumbnailPixelSize == nil {
            return absoluteString
        }
        var key = (request.cacheKeyFilter ?? settings?.cacheKeyFilter).map { $0(url) } ?? absoluteString
        if let thumbnail = request.thumbnailPixelSize {
            key = ImageCache.thumbnailKey(for: key, pixelSize: thumbnail, preservingAspectRatio: request.preserveAspectRatio)
        }
        if let transformer = request.transformer ?? settings?.transformer {
            key = transformer.transformedKey(for: key)
        }
        return key
    }

    /// The key of `request`'s untransformed, full-size image: its filter's (or the
    /// manager's) answer for `url`, else the absolute string.
    func originalCacheKey(for request: ImageRequest, url: URL) -> String {
        (request.cacheKeyFilter ?? cacheKeyFilter).map { $0(url) } ?? url.absoluteString
    }

    // MARK: Running loads

    /// Whether any load started with the callback API is running.
    public var isRunning: Bool { running.withLockedValue { !$0.isEmpty } }

    /// The loads started with the callback API that are still running.
    public var runningOperations: [ImageLoadOperation] { running.withLockedValue { Array($0.values) } }

    /// Cancels every running load started with the callback API; each answers once with
    /// `ImageError.Code.cancelled`.
    public func cancelAll() {
        for operation in runningOperations {
            operation.cancel()
        }
    }

    // MARK: Blacklist

    /// Whether `url` is blacklisted.
    public func isFailedURL(_ url: URL) -> Bool {
        failedURLs.contains(url)
    }

    /// Takes `url` off the blacklist.
    public func removeFailedURL(_ url: URL) {
        failedURLs.remove(url)
    }

    /// Empties the blacklist.
    public func removeAllFailedURLs() {
        failedURLs.removeAll()
    }

    /// The most URLs the blacklist keeps (1,000 by default, ``defaultFailedURLCapacity``):
    /// past it, the least recently failed or refused URL is forgotten and will be tried
    /// again. Setting it lower forgets the excess at once.
    public var failedURLCapacity: Int {
        get { failedURLs.capacity }
        set { failedURLs.capacity = newValue }
    }

    /// The blacklist's default capacity: 1,000 URLs.
    public static let defaultFailedURLCapacity = FailedURLSet.defaultCapacity

    // MARK: Cache shortcuts

    /// Whether the image for `url` is in memory or on disk.
    public func cachedImageExists(for url: URL) async -> Bool {
        await cache.containsImage(forKey: cacheKey(for: url), scope: .all) != .none
    }

    /// Whether the image for `url` is on disk.
    public func diskImageExists(for url: URL) async -> Bool {
        await cache.containsImage(forKey: cacheKey(for: url), scope: .disk) == .disk
    }

    /// Stores `image` (and its bytes, if given) as the image of `url`.
    public func saveImageToCache(_ image: Image, data: Data? = nil, for url: URL) async throws(ImageError) {
        try await cache.store(image, data: data, forKey: cacheKey(for: url), scope: .all, metadata: nil)
    }

    // MARK: Callback API

    /// Loads the image `request` asks for and calls `completion` on the request's (or the
    /// manager's) callback queue: once, or more often for progressive and refreshing loads.
    ///
    /// A memory hit that needs no revalidation completes at once, on the calling thread,
    /// before this method returns (as SDWebImage does on the main thread), so a view shows a
    /// cached image without a placeholder flash.
    ///
    /// Every load answers exactly once with its result (after the partial images of a
    /// progressive load, or the cached answer of a refreshing one). A load cancelled first —
    /// by its operation, by ``cancelAll()`` or by a target starting another load under the
    /// same key — answers instead, once and last, with `ImageError.Code.cancelled`, as
    /// SDWebImage 5 does.
    @discardableResult
    public func loadImage(
        with request: ImageRequest,
        progress: (@Sendable (_ received: Int64, _ expected: Int64) -> Void)? = nil,
        completion: @escaping @Sendable (ImageResponse) -> Void
    ) -> ImageLoadOperation {
        let keySettings = self.keySettings
        // Without a processor the request goes on as given, not copied: the memory hit is benchmarked.
        if let processor = keySettings?.optionsProcessor {
            return startLoad(processor(request), settings: keySettings, memoryAsked: false, progress: progress, completion: completion)
        }
        return startLoad(request, settings: keySettings, memoryAsked: false, progress: progress, completion: completion)
    }

    /// The callback API's load of `request`, already processed; `memoryAsked` when its
    /// memory hit was already looked for.
    private func startLoad(
        _ request: ImageRequest,
        settings keySettings: KeySettings?,
        memoryAsked: Bool,
        progress: (@Sendable (_ received: Int64, _ expected: Int64) -> Void)?,
        completion: @escaping @Sendable (ImageResponse) -> Void
    ) -> ImageLoadOperation {
        if !memoryAsked, let hit = synchronousMemoryHit(for: request, settings: keySettings) {
            completion(hit)
            return .finished
        }
        if request.options.contains(.queryDiskDataSync), let hit = synchronousDiskHit(for: request, settings: keySettings) {
            completion(hit)
            return .finished
        }
        return startRunning(request, progress: progress, completion: completion)
    }

    /// Starts the engine on a load of the callback API the caches could not answer at once.
    private func startRunning(
        _ request: ImageRequest,
        progress: (@Sendable (_ received: Int64, _ expected: Int64) -> Void)?,
        completion: @escaping @Sendable (ImageResponse) -> Void
    ) -> ImageLoadOperation {
        let queue = DispatchQueue(label: "SwiftWebImage.ImageManager.callbacks", target: request.callbackQueue ?? callbackQueue)
        let operation = ImageLoadOperation(
            onEnd: { [weak self] operation in
                _ = self?.running.withLockedValue { $0.removeValue(forKey: ObjectIdentifier(operation)) }
            },
            answerCancellation: { [url = request.url] in
                // Behind every answer already queued, which now sees the cancellation and drops itself.
                queue.async { completion(ImageResponse(error: ImageError(.cancelled, "the image load was cancelled"), url: url)) }
            }
        )
        running.withLockedValue { $0[ObjectIdentifier(operation)] = operation }
        var request = request
        request.priorityControl = operation.priorityControl
        operation.start { [self, request] in
            let final = await run(request) { event in
                queue.async {
                    guard !operation.isCancelled else { return }
                    switch event {
                    case let .progress(received, expected):
                        progress?(received, expected)
                    case let .partialImage(image):
                        completion(ImageResponse(image: image, isFinished: false, url: request.url))
                    case let .response(response):
                        completion(response)
                    }
                }
            }
            // As in SDWebImage, the load leaves the running set before its last completion runs.
            let response = final.response(for: request.url)
            queue.async {
                if operation.finish(), let response {
                    completion(response)
                }
            }
        }
        return operation
    }

    /// Loads the image at `url` with `options`; see ``loadImage(with:progress:completion:)``.
    @discardableResult
    public func loadImage(
        with url: URL?,
        options: ImageOptions = [],
        progress: (@Sendable (_ received: Int64, _ expected: Int64) -> Void)? = nil,
        completion: @escaping @Sendable (ImageResponse) -> Void
    ) -> ImageLoadOperation {
        guard let url, let imageCache = cacheAnsweringPlainURLs else {
            return loadImage(with: ImageRequest(url: url, options: options), progress: progress, completion: completion)
        }
        if let hit = synchronousMemoryHit(for: url, options: options, in: imageCache) {
            completion(hit)
            return .finished
        }
        return startLoad(ImageRequest(url: url, options: options), settings: nil, memoryAsked: true, progress: progress, completion: completion)
    }
}
