import Foundation

/// The synchronous road to a cached answer: the memory hit (and, with
/// ``ImageOptions/queryDiskDataSync``, the disk hit) that answers a load before
/// `loadImage` returns. It asks the rules the asynchronous load asks
/// (`ImageManager+CachedAnswer.swift`); only the lookup is its own, so that the
/// benchmarked memory hit makes no protocol call and copies no entry.
extension ImageManager {
    /// The manager's own cache when a URL and options make the whole request — no key
    /// setting is set — so its memory can answer before a request is built; `nil` otherwise.
    var cacheAnsweringPlainURLs: ImageCache? {
        keySettingsAreSet.load(ordering: .acquiring) ? nil : imageCache
    }

    /// The memory hit that can answer `request` at once, if any, counted in the manager's
    /// metrics.
    func synchronousMemoryHit(for request: ImageRequest) -> ImageResponse? {
        synchronousMemoryHit(for: request, settings: keySettings)
    }

    /// ``synchronousMemoryHit(for:)`` for a request of `url` and `options` alone, asked of
    /// ``cacheAnsweringPlainURLs``.
    func synchronousMemoryHit(for url: URL, options: ImageOptions, in imageCache: ImageCache) -> ImageResponse? {
        let absoluteString = url.absoluteString
        guard mayAnswerAtOnce(url: url, absoluteString: absoluteString, options: options) else { return nil }
        return memoryHit(in: imageCache, forKey: absoluteString, url: url, options: options, headers: [:])
    }

    /// ``synchronousMemoryHit(for:)`` with the settings the load already read.
    func synchronousMemoryHit(for request: ImageRequest, settings keySettings: KeySettings?) -> ImageResponse? {
        guard let url = request.url, request.queryCacheType.includesMemory else { return nil }
        let absoluteString = url.absoluteString
        guard mayAnswerAtOnce(url: url, absoluteString: absoluteString, options: request.options) else { return nil }
        let key = cacheKey(for: request, url: url, absoluteString: absoluteString, settings: keySettings)
        // The concrete cache first: the benchmarked path makes no protocol call and copies no entry.
        if request.leavesRareSettingsAlone || request.cache == nil, let imageCache {
            return memoryHit(in: imageCache, forKey: key, url: url, options: request.options, headers: request.headers)
        }
        let cache = cache(for: request)
        guard let hit = cache.memoryResult(forKey: key, decodeOptions: request.decodeOptions),
            cache.cachePolicy != .http || mayAnswerUnderHTTPPolicy(with: hit.metadata, headers: request.headers, options: request.options, url: url)
        else { return nil }
        telemetry.recordSynchronousMemoryHit()
        return ImageResponse(image: hit.image, data: hit.data, cacheType: .memory, url: url)
    }

    /// Whether a load of `url` with `options` may be answered from the caches before it
    /// starts: it has a URL, asks for no refresh and no loader-only load, and its URL is not
    /// blacklisted (or it retries failed URLs).
    private func mayAnswerAtOnce(url: URL, absoluteString: String, options: ImageOptions) -> Bool {
        !absoluteString.isEmpty && options.isDisjoint(with: [.refreshCached, .fromLoaderOnly])
            && !refusesAsFailed(url, options: options)
    }

    /// The entry of `imageCache`'s memory under `key` that can answer a load of `url` with
    /// `options` and `headers` at once, if any, counted in the manager's metrics.
    private func memoryHit(in imageCache: ImageCache, forKey key: String, url: URL, options: ImageOptions, headers: [String: String]) -> ImageResponse? {
        guard let entry = imageCache.memoryEntry(forKey: key),
            let image = entry.image(
                decodingFramesOnDemand: options.contains(.decodeFramesOnDemand),
                requiringFramesOnDemand: options.contains(.matchAnimatedImageClass),
                firstFrameOnly: options.contains(.decodeFirstFrameOnly)
            ),
            // Only the HTTP policy reads the metadata, and only an entry that has some.
            !entry.hasMetadata || imageCache.configuration.cachePolicy != .http
                || mayAnswerUnderHTTPPolicy(with: entry.metadata, headers: headers, options: options, url: url)
        else { return nil }
        telemetry.recordSynchronousMemoryHit()
        return ImageResponse(image: image, data: image === entry.image ? entry.data : nil, cacheType: .memory, url: url)
    }

    /// With ``ImageOptions/queryDiskDataSync``: the disk hit of the manager's own cache that
    /// can answer `request` at once, read and decoded on the calling thread, if any.
    func synchronousDiskHit(for request: ImageRequest, settings keySettings: KeySettings?) -> ImageResponse? {
        guard request.leavesRareSettingsAlone || request.cache == nil, let imageCache, let url = request.url, request.queryCacheType.includesDisk
        else { return nil }
        let absoluteString = url.absoluteString
        guard mayAnswerAtOnce(url: url, absoluteString: absoluteString, options: request.options) else { return nil }
        let key = cacheKey(for: request, url: url, absoluteString: absoluteString, settings: keySettings)
        guard let hit = imageCache.diskResult(forKey: key, decodeOptions: request.decodeOptions),
            imageCache.configuration.cachePolicy != .http
                || mayAnswerUnderHTTPPolicy(with: hit.metadata, headers: request.headers, options: request.options, url: url)
        else { return nil }
        return ImageResponse(image: hit.image, data: hit.data, cacheType: .disk, url: url)
    }
}
