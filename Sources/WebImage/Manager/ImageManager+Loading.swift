import Foundation

extension ImageManager {
    /// The one load engine behind every API: SDWebImage's `loadImageWithURL` algorithm.
    ///
    /// Reports progress, partial images and the cached answer of a refreshing load through
    /// `emit`, and returns how the load ended. A cancelled load reports nothing once the
    /// calling task is cancelled.
    func load(_ request: ImageRequest, emit: @escaping @Sendable (ImageLoadEvent) -> Void) async -> LoadOutcome {
        let options = request.options
        guard let url = request.url, !url.absoluteString.isEmpty else {
            return .failed(ImageError(.invalidURL, "the image URL is missing or empty"))
        }
        if let refusal = blacklistRefusal(of: url, options: options) {
            return .failed(refusal)
        }
        var key = cacheKey(for: request)
        let cache = cache(for: request)

        var cached: ImageCacheResult?
        if !options.contains(.fromLoaderOnly), request.queryCacheType != .none {
            do {
                cached = try await cache.image(
                    forKey: key, scope: request.queryCacheType, decodeOptions: request.decodeOptions, storeScope: request.storeCacheType)
                if let varied = cached?.metadata?.variedRequestHeaders, cache.cachePolicy == .http,
                    cached?.metadata?.matchesVariedHeaders(of: request.headers) == false
                {
                    // Another variant holds the URL's entry: this request's lives beside it.
                    key = Self.variantKey(key, varyingOn: varied, requestHeaders: request.headers)
                    cached = try await cache.image(
                        forKey: key, scope: request.queryCacheType, decodeOptions: request.decodeOptions,
                        storeScope: request.storeCacheType)
                    if cached?.metadata?.matchesVariedHeaders(of: request.headers) == false {
                        cached = nil
                    }
                }
            } catch {
                return .cancelled
            }
        }
        if Task.isCancelled { return .cancelled }
        if cached == nil, let outcome = await loadFromOriginal(url, request: request, key: key) {
            return outcome
        }

        let freshness = cached.flatMap { httpFreshness(of: $0.metadata, url: url, options: options, policy: cache.cachePolicy) }
        let wantsDownload = cached == nil || options.contains(.refreshCached) || (freshness.map { $0 != .fresh } ?? false)
        let mayDownload = wantsDownload && !options.contains(.fromCacheOnly) && (shouldDownload?(url) ?? true)
        guard mayDownload else {
            if let cached { return .image(cached.image, data: cached.data, cacheType: cached.cacheType) }
            guard options.contains(.fromCacheOnly) else { return .declined }
            return .failed(ImageError(.notFound, "\(url.absoluteString) is not in the cache and fromCacheOnly forbids loading it"))
        }
        guard let cached else {
            return await download(url, request: request, key: key, cached: nil, emit: emit)
        }
        if freshness != .stale {
            // refreshCached and stale-while-revalidate: the cached image answers now, and the
            // caller hears again only if the server sends a changed one.
            emit(.response(ImageResponse(image: cached.image, data: cached.data, cacheType: cached.cacheType, url: url)))
            return await download(url, request: request, key: key, cached: cached, emit: emit)
        }
        // Stale: revalidate before answering.
        let outcome = await download(url, request: request, key: key, cached: cached, emit: emit)
        switch outcome {
        case .notModified:
            return .image(cached.image, data: cached.data, cacheType: cached.cacheType)
        case let .failed(error) where Self.allowsStaleAnswer(after: error) && cached.metadata?.mayAnswerAfterError() == true:
            return .image(cached.image, data: cached.data, cacheType: cached.cacheType)
        default:
            return outcome
        }
    }

    /// Loads, transforms and stores the image of a load the cache could not (or, for a
    /// refresh, need not) answer alone; returns how it ended.
    private func download(
        _ url: URL,
        request: ImageRequest,
        key: String,
        cached: ImageCacheResult?,
        emit: @escaping @Sendable (ImageLoadEvent) -> Void
    ) async -> LoadOutcome {
        let cache = cache(for: request)
        let hasCachedImage = cached != nil
        var cachedMetadata = cached?.metadata
        if hasCachedImage, cachedMetadata == nil {
            cachedMetadata = await cache.metadata(forKey: key)
        }
        let validators = cachedMetadata.map { HTTPValidators(eTag: $0.entityTag, lastModified: $0.lastModified) }
        let options = request.options
        let progressive =
            options.contains(.progressiveDownload) && !hasCachedImage
            && !options.contains(.scaleDownLargeImages)
        var partialImage: ImageLoadRequest.PartialImage?
        if progressive {
            partialImage = { @Sendable image in emit(.partialImage(image)) }
        }
        var loadRequest = ImageLoadRequest(
            url: url,
            options: ImageManager.downloaderOptions(for: options, hasCachedImage: hasCachedImage),
            decodeOptions: decodeOptions(for: request, key: key),
            validators: validators,
            headers: request.headers,
            progress: { received, expected in emit(.progress(received: received, expected: expected)) },
            partialImage: partialImage,
            downloadDeadline: request.downloadDeadline,
            retryPolicy: request.retryPolicy
        )
        loadRequest.priorityControl = request.priorityControl
        loadRequest.requestModifier = request.requestModifier
        loadRequest.responseModifier = request.responseModifier
        loadRequest.decryptor = request.decryptor

        let result: ImageLoadResult
        do {
            result = try await loader.loadImage(loadRequest)
        } catch {
            if Task.isCancelled { return .cancelled }
            // A transfer cancelled under the caller (the downloader's `cancelAllDownloads`)
            // still answers, as SDWebImage does, but never blacklists.
            recordFailure(error, of: url)
            return .failed(error)
        }
        if Task.isCancelled { return .cancelled }
        if options.contains(.retryFailed) {
            failedURLs.remove(url)
        }
        guard !result.isNotModified else {
            guard hasCachedImage else {
                return .failed(ImageError(.notFound, "the server answered 304 Not Modified but there is no cached copy"))
            }
            if let response = result.response, let cachedMetadata {
                // A 304 renews the entry's freshness; its bytes stay as they are.
                await cache.refreshMetadata(cachedMetadata.refreshed(by: response), forKey: key)
            }
            return .notModified
        }
        guard let downloaded = result.image else {
            return .failed(ImageError(.badImageData, "the loader returned no image"))
        }
        let image = await transformed(downloaded, request: request)
        if Task.isCancelled { return .cancelled }
        // A thumbnail or transformed image is not what the downloaded bytes encode.
        let isDerived = request.thumbnailPixelSize != nil || image !== downloaded
        await store(image, isDerived: isDerived, result: result, request: request, key: key, url: url)
        if Task.isCancelled { return .cancelled }
        return .image(image, data: isDerived ? nil : result.data, cacheType: .none, metrics: result.metrics)
    }

    /// SDWebImage's translation of manager options into downloader options: a cached image
    /// being refreshed turns progressive decoding off. (Its URL-cache options have nothing to
    /// do here: the refresh's validators are always sent, and a 304 always means "not
    /// modified".)
    static func downloaderOptions(for options: ImageOptions, hasCachedImage: Bool) -> ImageDownloaderOptions {
        var result: ImageDownloaderOptions = []
        let pairs: [(ImageOptions, ImageDownloaderOptions)] = [
            (.lowPriority, .lowPriority), (.progressiveDownload, .progressiveDownload),
            (.handleCookies, .handleCookies), (.allowInvalidSSLCertificates, .allowInvalidSSLCertificates),
            (.highPriority, .highPriority), (.scaleDownLargeImages, .scaleDownLargeImages),
        ]
        for (option, downloaderOption) in pairs where options.contains(option) {
            result.insert(downloaderOption)
        }
        if hasCachedImage, options.contains(.refreshCached) {
            result.remove(.progressiveDownload)
        }
        return result
    }

    private func decodeOptions(for request: ImageRequest, key: String) -> ImageDecodeOptions {
        var options = request.decodeOptions
        if options.scaleFactor == nil {
            options.scaleFactor = Image.scale(forKey: key)
        }
        return options
    }

    /// Adds `url` to the failed URLs when `error` (not a cancellation) is one the rules block.
    func recordFailure(_ error: ImageError, of url: URL) {
        if error.code != .cancelled, shouldBlock(url, error: error) {
            failedURLs.insert(url)
        }
    }

    private func shouldBlock(_ url: URL, error: ImageError) -> Bool {
        if let rule = shouldBlockFailedURL {
            return rule(url, error)
        }
        return loader.shouldBlockFailedURL(url, error: error)
    }

    /// Runs the transformer on the decoding threads (not the cooperative pool); animated
    /// images only with ``ImageOptions/transformAnimatedImage``. An output that names no
    /// format keeps the source's, as SDWebImage's transformers preserve the image's metadata.
    func transformed(_ image: Image, request: ImageRequest) async -> Image {
        guard let transformer = request.transformer ?? transformer,
            !image.isAnimated || request.options.contains(.transformAnimatedImage)
        else { return image }
        let start = ContinuousClock.Instant.now
        let result = try? await DecodingWorkers.run { () throws(ImageError) -> Image in
            guard let output = transformer.transform(image) else { return image }
            return output.format == .undefined ? output.withFormat(image.format) : output
        }
        telemetry.recordTransform(duration: start.duration(to: .now))
        return result ?? image
    }

    /// Stores the loaded image. An image changed by a thumbnail or a transformer is stored
    /// re-encoded (its bytes are not the download's); the download's own bytes and HTTP
    /// facts go with an unchanged image, and with the original when asked for.
    private func store(_ image: Image, isDerived: Bool, result: ImageLoadResult, request: ImageRequest, key: String, url: URL) async {
        let cache = cache(for: request)
        // no-store (under HTTP's rules): the image serves this load from memory, never disk.
        let forbidsDisk =
            request.options.contains(.cacheMemoryOnly)
            || (cache.cachePolicy == .http && result.response.map(DiskCacheEntryMetadata.forbidsStoring) == true)
        let scope: ImageCacheType =
            forbidsDisk
            ? (request.storeCacheType.includesMemory ? .memory : .none)
            : request.storeCacheType
        let metadata = result.response.map { response in
            var metadata = DiskCacheEntryMetadata(response: response)
            metadata.variedRequestHeaders = DiskCacheEntryMetadata.variedRequestHeaders(of: response, requestHeaders: request.headers)
            return metadata
        }
        await storeFinalImage(
            image, data: isDerived ? nil : result.data, scope: scope, request: request, key: key, url: url, metadata: metadata)
        guard isDerived, request.originalStoreCacheType != .none else { return }
        // A thumbnail load never decoded the full picture: its original goes to disk as bytes only.
        let original = request.thumbnailPixelSize == nil ? result.image : nil
        var originalScope = forbidsDisk ? .memory : request.originalStoreCacheType
        if original == nil {
            originalScope = originalScope.includesDisk ? .disk : .none
        }
        guard originalScope != .none else { return }
        let originalKey = originalCacheKey(for: request, url: url)
        let originalCache = request.originalCache ?? cache
        try? await originalCache.store(original, data: result.data, forKey: originalKey, scope: originalScope, metadata: metadata)
    }
}
