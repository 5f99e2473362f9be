import Foundation

extension ImageManager {
    /// SDWebImage 5's original-cache step: when the derived key of a request with a
    /// thumbnail size or a transformer missed, the untransformed, full-size entry is looked
    /// up under the original key (in ``ImageRequest/originalCache``, else the request's
    /// cache) in the levels ``ImageRequest/originalQueryCacheType`` names. A hit is decoded
    /// at the thumbnail size (a disk hit's bytes by the cache's coders; a memory hit
    /// resized), transformed, stored under the derived key, and answers the load without a
    /// download. The original entry is never rewritten, nor stored again.
    ///
    /// - Returns: How the load ended, or `nil` when the request derives nothing or the
    ///   original is not cached (or, under HTTP's rules, is stale or another variant).
    func loadFromOriginal(_ url: URL, request: ImageRequest, key: String) async -> LoadOutcome? {
        guard request.originalQueryCacheType != .none, !request.options.contains(.fromLoaderOnly),
            request.thumbnailPixelSize != nil || (request.transformer ?? transformer) != nil
        else { return nil }
        let originalKey = originalCacheKey(for: request, url: url)
        guard originalKey != key else { return nil }
        let originalCache = request.originalCache ?? cache(for: request)
        let decodeOptions = request.decodeOptions
        let original: ImageCacheResult?
        do {
            original = try await originalCache.image(
                forKey: originalKey, scope: request.originalQueryCacheType, decodeOptions: decodeOptions)
        } catch {
            return .cancelled
        }
        if Task.isCancelled { return .cancelled }
        guard let original else { return nil }
        if originalCache.cachePolicy == .http {
            if original.metadata?.matchesVariedHeaders(of: request.headers) == false { return nil }
            let freshness = httpFreshness(of: original.metadata, url: url, options: request.options, policy: .http)
            if freshness == .stale { return nil }
        }
        guard let source = await thumbnail(of: original, decodeOptions: decodeOptions) else { return nil }
        let image = await transformed(source, request: request)
        if Task.isCancelled { return .cancelled }

        var scope = request.storeCacheType
        if request.options.contains(.cacheMemoryOnly) {
            scope = scope.includesMemory ? .memory : .none
        }
        // The original is not stored again: it is where it was found (SDWebImage stores a
        // disk hit in memory when asked; an ImageCache promotes a full-size disk hit itself).
        await storeFinalImage(image, data: nil, scope: scope, request: request, key: key, url: url, metadata: original.metadata)
        if Task.isCancelled { return .cancelled }
        return .image(image, data: nil, cacheType: original.cacheType)
    }

    /// The original's image at the request's thumbnail size: a disk hit was decoded at it
    /// already; a full-size memory hit is resized on the decoding threads. `nil` for an
    /// image decoded frame by frame, which is not resized here.
    private func thumbnail(of original: ImageCacheResult, decodeOptions: ImageDecodeOptions) async -> Image? {
        let image = original.image
        guard decodeOptions.thumbnailPixelSize != nil else { return image }
        let size = decodeOptions.targetSize(forSource: image.pixelSize, frameCount: image.frames.count)
        guard size != image.pixelSize else { return image }
        guard image.animation == nil else { return nil }
        let resizing = ResizingImageTransformer(size: size, contentMode: .fill)
        return try? await DecodingWorkers.run { () throws(ImageError) -> Image? in resizing.transform(image) }
    }

    /// Stores the final image of a load for `key` in the levels `scope` names, with the
    /// bytes the cache serializer (the request's, else the manager's) makes of it when the
    /// store reaches the disk, else `data` (`nil`: the cache encodes the image).
    func storeFinalImage(
        _ image: Image, data: Data?, scope: ImageCacheType, request: ImageRequest, key: String, url: URL,
        metadata: DiskCacheEntryMetadata?
    ) async {
        guard scope != .none else { return }
        var bytes = data
        if scope.includesDisk, let serializer = request.cacheSerializer ?? cacheSerializer {
            // The serializer may encode: on the decoding threads, not the cooperative pool.
            bytes = try? await DecodingWorkers.run { () throws(ImageError) -> Data? in serializer(image, data, url) }
        }
        try? await cache(for: request).store(image, data: bytes, forKey: key, scope: scope, metadata: metadata)
    }
}
