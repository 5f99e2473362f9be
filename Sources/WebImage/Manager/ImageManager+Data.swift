import Foundation

extension ImageManager {
    /// Brings the original bytes of `request`'s image into the disk cache without decoding
    /// them: what a prefetch into the disk cache does (see ``PrefetchDestination/diskCache``).
    ///
    /// Bytes already on disk are left alone. Downloaded bytes are checked cheaply before
    /// they are stored — a coder must accept them and their header must declare a size
    /// within the request's `ImageDecodeOptions/maxPixelCount` (see
    /// `ImageCodersManager.checkHeader(of:options:)`) — and stored under the request's
    /// original key (its thumbnail and transformer apply when it is loaded), with the
    /// response's validators and expiry. Nothing enters the memory cache.
    ///
    /// - Returns: Whether the bytes were downloaded now (`false`: they were on disk already).
    /// - Throws: The load's error, the check's (`ImageError/Code/badImageData`,
    ///   `ImageError/Code/imageTooLarge`…), `ImageError/Code/refused` when
    ///   ``shouldDownload`` declines the URL, or `ImageError/Code/cancelled`.
    @discardableResult
    public func storeDataInDiskCache(for request: ImageRequest) async throws(ImageError) -> Bool {
        let request = processed(request)
        guard let url = request.url, !url.absoluteString.isEmpty else {
            throw ImageError(.invalidURL, "the image URL is missing or empty")
        }
        let options = request.options
        if let refusal = blacklistRefusal(of: url, options: options) { throw refusal }
        let key = originalCacheKey(for: request, url: url)
        let cache = cache(for: request)
        if !options.contains(.refreshCached), await cache.containsImage(forKey: key, scope: .disk) == .disk {
            return false
        }
        guard shouldDownload?(url) ?? true else {
            throw ImageError(.refused, "the manager's shouldDownload declined \(url.absoluteString)")
        }
        let loadRequest = ImageLoadRequest(
            url: url,
            options: ImageManager.downloaderOptions(for: options.subtracting(.progressiveDownload), hasCachedImage: false),
            headers: request.headers,
            decodesImage: false,
            downloadDeadline: request.downloadDeadline,
            retryPolicy: request.retryPolicy
        )
        let result: ImageLoadResult
        do throws(ImageError) {
            result = try await loader.loadImage(loadRequest)
            if Task.isCancelled { throw ImageError(.cancelled, "the prefetch of \(url.absoluteString) was cancelled") }
            try ((cache as? ImageCache)?.coders ?? .shared).checkHeader(of: result.data, options: request.decodeOptions)
        } catch {
            // Bytes that would not decode count as a failed load, as they do when decoded.
            if !Task.isCancelled { recordFailure(error, of: url) }
            throw error
        }
        let metadata = result.response.map { DiskCacheEntryMetadata(response: $0) }
        try await cache.store(nil, data: result.data, forKey: key, scope: .disk, metadata: metadata)
        if options.contains(.retryFailed) {
            failedURLs.remove(url)
        }
        return true
    }
}
