import Foundation

/// The two-level image cache: decoded images in a ``MemoryCache``, their bytes in a
/// ``DiskCache`` (or the memory cache ``ImageCacheConfiguration/memoryCacheType`` and the
/// disk storage ``ImageCacheConfiguration/diskStorageType`` name).
///
/// Memory lookups answer synchronously under a lock. Disk work — reads, encoding and
/// writing a store — runs on the cache's own serial I/O queue, never on the cooperative
/// pool or an event loop. A disk hit is decoded on the library's decoding threads (one per
/// core, shared with downloads) with the cache's `ImageCodersManager` and, when ``ImageCacheConfiguration/shouldCacheImagesInMemory`` is on,
/// promoted into memory.
///
/// Completion handlers run on the `callbackQueue` each call takes. It defaults to a
/// global queue rather than the main queue: on Linux the main queue only runs when the
/// program services it (`dispatchMain()` or a run loop), which servers, tools and test
/// runners usually do not.
public final class ImageCache: Sendable {
    /// The cache for namespace `"default"` in ``ImageCacheConfiguration/defaultDiskCacheDirectory``.
    public static let shared = ImageCache()

    /// The configuration the cache was created with.
    public let configuration: ImageCacheConfiguration
    /// The namespace: the name of the cache's folder inside its directory.
    public let namespace: String
    /// The disk level: a ``DiskCache``, or the storage ``ImageCacheConfiguration/diskStorageType`` names.
    public let diskStorage: any ImageDiskStorage
    /// The disk level when it is the built-in ``DiskCache``; `nil` when the configuration
    /// names another storage.
    public var diskCache: DiskCache? { diskStorage as? DiskCache }
    /// The memory cache: a ``MemoryCache``, or the one ``ImageCacheConfiguration/memoryCacheType`` names.
    public var memoryCache: any ImageMemoryCache { layeredMemoryCache.cache }
    /// The coders that decode disk hits and encode images stored without bytes.
    public let coders: ImageCodersManager

    let layeredMemoryCache: LayeredMemoryCache
    let ioQueue: DispatchQueue

    /// Creates a cache whose disk level lives in `<directory>/<namespace>`.
    ///
    /// - Parameters:
    ///   - namespace: The folder name inside `directory`; caches with different
    ///     namespaces never see each other's entries.
    ///   - directory: The folder holding the namespaces.
    ///   - configuration: Limits and behaviour, copied.
    ///   - coders: The coders for decoding disk hits and encoding stores without bytes.
    public init(
        namespace: String = "default",
        directory: URL = ImageCacheConfiguration.defaultDiskCacheDirectory,
        configuration: ImageCacheConfiguration = ImageCacheConfiguration(),
        coders: ImageCodersManager = .shared
    ) {
        self.configuration = configuration
        self.namespace = namespace
        self.coders = coders
        layeredMemoryCache = LayeredMemoryCache(configuration: configuration)
        let folder = directory.appendingPathComponent(namespace, isDirectory: true)
        diskStorage = (configuration.diskStorageType?.type ?? DiskCache.self).init(directory: folder, configuration: configuration)
        ioQueue = DispatchQueue(label: "SwiftWebImage.ImageCache.io.\(namespace)", qos: .userInitiated)
    }

    // MARK: Queries

    /// The image in memory for `key`, at once; `nil` on a miss.
    public func imageFromMemory(forKey key: String) -> Image? {
        layeredMemoryCache.image(forKey: key)
    }

    /// Looks `key` up in the levels `scope` names: memory first, then disk.
    ///
    /// A memory hit, and any query that does not include the disk, calls `completion`
    /// before this method returns, on the calling thread, and returns `nil`. Otherwise the
    /// disk is read on the I/O queue, a hit is decoded (with `decodeOptions`, whose scale
    /// defaults to the key's `@2x`/`@3x`), and `completion` runs on `callbackQueue` — with
    /// `nil` on a miss or when the bytes do not decode. A query scoped to
    /// ``ImageCacheType/disk`` always decodes the disk's bytes, never answering with the
    /// memory entry.
    ///
    /// - Returns: The disk lookup, which can be cancelled. `completion` runs exactly once:
    ///   a query cancelled before it answered answers at once, on the cancelling thread,
    ///   with `ImageError.Code.cancelled`.
    @discardableResult
    public func queryImage(
        forKey key: String,
        scope: ImageCacheType = .all,
        decodeOptions: ImageDecodeOptions? = nil,
        callbackQueue: DispatchQueue = .global(qos: .userInitiated),
        completion: @escaping @Sendable (Result<ImageCacheResult?, ImageError>) -> Void
    ) -> ImageCacheQuery? {
        if scope.includesMemory, let result = memoryResult(forKey: key, decodeOptions: decodeOptions) {
            completion(.success(result))
            return nil
        }
        guard scope.includesDisk else {
            completion(.success(nil))
            return nil
        }
        let query = ImageCacheQuery {
            completion(.failure(ImageError(.cancelled, "the cache query was cancelled")))
        }
        queryDisk(forKey: key, scope: scope, decodeOptions: decodeOptions, query: query) { result in
            callbackQueue.async { if query.finish() { completion(.success(result)) } }
        }
        return query
    }

    /// Reads the disk entry for `key` on the I/O queue and decodes a hit on the decoding
    /// workers (so a burst of disk hits decodes on every core, not one at a time behind the
    /// reads), then hands the result to `deliver` on the worker; nothing is delivered once
    /// `query` is cancelled. A `scope` that includes memory lets an image another query
    /// decoded meanwhile answer without decoding again.
    func queryDisk(
        forKey key: String,
        scope: ImageCacheType,
        decodeOptions: ImageDecodeOptions?,
        promotesToMemory: Bool = true,
        query: ImageCacheQuery,
        deliver: @escaping @Sendable (ImageCacheResult?) -> Void
    ) {
        ioQueue.async { [self] in
            guard !query.isCancelled else { return }
            guard let data = diskStorage.data(forKey: key) else {
                deliver(nil)
                return
            }
            DecodingWorkers.submit { [self] in
                guard !query.isCancelled else { return }
                deliver(
                    diskResult(
                        decoding: data, forKey: key, decodeOptions: decodeOptions, reusingMemory: scope.includesMemory,
                        promotesToMemory: promotesToMemory))
            }
        }
    }

    /// The image for `key` from disk, read and decoded on the calling thread (which it
    /// blocks), and promoted into memory; `nil` on a miss.
    public func imageFromDisk(forKey key: String, decodeOptions: ImageDecodeOptions? = nil) -> Image? {
        diskResult(forKey: key, decodeOptions: decodeOptions)?.image
    }

    /// Decodes `data`, bytes the caller has already read from the disk entry for `key`, as a
    /// disk hit would be decoded: an image another query put in memory for the same options
    /// answers instead, and the decoded image goes into memory when this cache keeps images
    /// there. Blocks the calling thread; `nil` when the bytes do not decode.
    public func image(decoding data: Data, forKey key: String, decodeOptions: ImageDecodeOptions?) -> ImageCacheResult? {
        diskResult(decoding: data, forKey: key, decodeOptions: decodeOptions, reusingMemory: true)
    }

    /// A memory hit for `key`, at once, reduced to its first frame when the options ask for
    /// it; `nil` on a miss. An image decoded frame by frame (`Image/animation`) answers only
    /// options that ask for that: others need every frame decoded, so it counts as a miss
    /// for them.
    public func memoryResult(forKey key: String, decodeOptions: ImageDecodeOptions?) -> ImageCacheResult? {
        guard let entry = layeredMemoryCache.value(forKey: key),
            let image = entry.image(
                decodingFramesOnDemand: decodeOptions?.decodesFramesOnDemand == true,
                requiringFramesOnDemand: decodeOptions?.requiresFramesOnDemand == true,
                firstFrameOnly: decodeOptions?.firstFrameOnly == true
            )
        else { return nil }
        return ImageCacheResult(image: image, data: image === entry.image ? entry.data : nil, cacheType: .memory, metadata: entry.metadata)
    }

    /// The memory entry for `key` as it is stored (a reference, not a copy), made the most
    /// recently used: the manager's synchronous hit reads it.
    func memoryEntry(forKey key: String) -> ImageCacheEntry? {
        layeredMemoryCache.value(forKey: key)
    }

    /// Reads and decodes the disk entry for `key`, promoting it into memory. Blocks.
    func diskResult(forKey key: String, decodeOptions: ImageDecodeOptions?) -> ImageCacheResult? {
        guard let data = diskStorage.data(forKey: key) else { return nil }
        return diskResult(decoding: data, forKey: key, decodeOptions: decodeOptions, reusingMemory: true)
    }

    /// Decodes `data`, the disk entry for `key`, promoting the image into memory unless
    /// `promotesToMemory` is `false`. Blocks. With `reusingMemory`, an image another query
    /// put in memory meanwhile answers instead.
    private func diskResult(
        decoding data: Data, forKey key: String, decodeOptions: ImageDecodeOptions?, reusingMemory: Bool,
        promotesToMemory: Bool = true
    ) -> ImageCacheResult? {
        var options = decodeOptions ?? ImageDecodeOptions()
        let memoryKey = Self.memoryKey(for: key, decodedWith: options)
        // Another query may have decoded the same key while this one waited.
        if reusingMemory, let memoryKey, let entry = layeredMemoryCache.value(forKey: memoryKey),
            entry.image(
                decodingFramesOnDemand: options.decodesFramesOnDemand,
                requiringFramesOnDemand: options.requiresFramesOnDemand, firstFrameOnly: false) != nil
        {
            return ImageCacheResult(image: entry.image, data: data, cacheType: .disk, metadata: entry.metadata)
        }
        if options.scaleFactor == nil {
            options.scaleFactor = Image.scale(forKey: key)
        }
        guard let image = try? coders.decode(data, options: options) else { return nil }
        let metadata = diskStorage.metadata(forKey: key)
        if promotesToMemory, configuration.shouldCacheImagesInMemory, let memoryKey {
            storeInMemory(image, data: data, forKey: memoryKey, metadata: metadata)
        }
        return ImageCacheResult(image: image, data: data, cacheType: .disk, metadata: metadata)
    }

    /// Stores `image` in memory with `metadata`, keeping `data` only for an animated image.
    func storeInMemory(_ image: Image, data: Data?, forKey key: String, metadata: DiskCacheEntryMetadata?) {
        let entry = ImageCacheEntry(image: image, data: image.isAnimated ? data : nil, metadata: metadata)
        layeredMemoryCache.setValue(entry, forKey: key, cost: entry.cost)
    }

    /// The key under which the image decoded from `key`'s disk entry with `options` is kept
    /// in memory: `key` itself for the full image; for a thumbnail of a full-size entry,
    /// the thumbnail's key (as SDWebImage's cache does), never the full-size key; `nil`
    /// for a scaled-down image or a first frame, which stand for no key.
    private static func memoryKey(for key: String, decodedWith options: ImageDecodeOptions) -> String? {
        guard options.scaleDownLimitBytes == nil, !options.firstFrameOnly else { return nil }
        guard let thumbnail = options.thumbnailPixelSize else { return key }
        // A thumbnail key's entry is the thumbnail already.
        if key.contains(thumbnailKeyMarker) { return key }
        return thumbnailKey(for: key, pixelSize: thumbnail, preservingAspectRatio: options.preserveAspectRatio)
    }

    /// What every thumbnail key holds, before its size.
    private static let thumbnailKeyMarker = "-Thumbnail("

    /// The key a thumbnail of `key`'s image is cached under: `key` marked with the
    /// thumbnail's size and whether it keeps the aspect ratio (`fit`) or fills the box
    /// (`fill`). The manager names a thumbnail load's entry this way, and a disk query
    /// that decodes a thumbnail from a full-size entry keeps it in memory under this key.
    public static func thumbnailKey(for key: String, pixelSize: PixelSize, preservingAspectRatio: Bool) -> String {
        "\(key)\(thumbnailKeyMarker)\(pixelSize.width)x\(pixelSize.height),\(preservingAspectRatio ? "fit" : "fill"))"
    }
}
