import Foundation

extension ImageCache {
    /// Looks `key` up in the levels `scope` names, memory first, then disk (reading a hit on
    /// the I/O queue and decoding it on the decoding workers); `nil` on a miss. A query
    /// scoped to ``ImageCacheType/disk`` decodes the disk's bytes, never answering with the
    /// memory entry.
    ///
    /// - Throws: `ImageError.Code.cancelled` when the task is cancelled before the disk
    ///   answers.
    public func image(
        forKey key: String,
        scope: ImageCacheType = .all,
        decodeOptions: ImageDecodeOptions? = nil
    ) async throws(ImageError) -> ImageCacheResult? {
        try await image(forKey: key, scope: scope, decodeOptions: decodeOptions, storeScope: .all)
    }

    /// Looks `key` up as ``image(forKey:scope:decodeOptions:)`` does; a disk hit goes into
    /// memory only when `storeScope` includes ``ImageCacheType/memory`` (SDWebImage's
    /// `storeCacheType` on a query: a load that stores to disk only leaves memory alone).
    public func image(
        forKey key: String,
        scope: ImageCacheType,
        decodeOptions: ImageDecodeOptions?,
        storeScope: ImageCacheType
    ) async throws(ImageError) -> ImageCacheResult? {
        if scope.includesMemory, let result = memoryResult(forKey: key, decodeOptions: decodeOptions) {
            return result
        }
        guard scope.includesDisk else { return nil }
        let continuation = CancellableContinuation<ImageCacheResult?>()
        let outcome = await withTaskCancellationHandler {
            await continuation.wait { resume in
                let query = ImageCacheQuery()
                queryDisk(
                    forKey: key, scope: scope, decodeOptions: decodeOptions, promotesToMemory: storeScope.includesMemory,
                    query: query
                ) { result in
                    if query.finish() { resume(result) }
                }
                return query
            }
        } onCancel: {
            continuation.cancel()
        }
        return try outcome.get()
    }

    /// Stores an image, its original bytes, or both, for `key`, and returns once the disk
    /// write is done. See ``store(_:data:forKey:scope:metadata:callbackQueue:completion:)``.
    public func store(
        _ image: Image?,
        data: Data? = nil,
        forKey key: String,
        scope: ImageCacheType = .all,
        metadata: DiskCacheEntryMetadata? = nil
    ) async throws(ImageError) {
        let failure = await withCheckedContinuation { continuation in
            store(image, data: data, forKey: key, scope: scope, metadata: metadata) { continuation.resume(returning: $0) }
        }
        if let failure { throw failure }
    }

    /// Removes the entry for `key` from the levels `scope` names.
    public func removeImage(forKey key: String, scope: ImageCacheType = .all) async {
        await withCheckedContinuation { continuation in
            removeImage(forKey: key, scope: scope) { continuation.resume() }
        }
    }

    /// Waits, off the cooperative pool, until the disk level's queued background work
    /// (trimming, removals, index updates) is done: before a process exits, for instance.
    public func waitForDiskMaintenance() async {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .utility).async { [diskCache] in
                diskCache?.waitForMaintenance()
                continuation.resume()
            }
        }
    }

    /// Empties the disk level.
    public func clearDisk() async {
        await withCheckedContinuation { continuation in
            clearDisk { continuation.resume() }
        }
    }

    /// Cleans the disk level as SDWebImage does (see ``deleteOldFiles(callbackQueue:completion:)``).
    public func deleteOldFiles() async {
        await withCheckedContinuation { continuation in
            deleteOldFiles { continuation.resume() }
        }
    }

    /// Whether the disk holds an entry for `key`.
    public func diskImageExists(forKey key: String) async -> Bool {
        await withCheckedContinuation { continuation in
            diskImageExists(forKey: key) { continuation.resume(returning: $0) }
        }
    }

    /// The bytes of all disk entries, counted now.
    public func totalDiskSize() async -> Int {
        await withCheckedContinuation { continuation in
            calculateDiskSize { _, size in continuation.resume(returning: size) }
        }
    }

    /// The number of disk entries, counted now.
    public func totalDiskCount() async -> Int {
        await withCheckedContinuation { continuation in
            calculateDiskSize { count, _ in continuation.resume(returning: count) }
        }
    }

    /// The HTTP facts stored with the disk entry for `key` (validators, content type,
    /// expiry), read on the I/O queue; `nil` when there is no entry or no metadata.
    public func metadata(forKey key: String) async -> DiskCacheEntryMetadata? {
        await withCheckedContinuation { continuation in
            ioQueue.async { continuation.resume(returning: self.diskStorage.metadata(forKey: key)) }
        }
    }

    /// Replaces the HTTP facts kept with `key`'s entry (after a `304 Not Modified`), on disk
    /// and in memory, without touching the entry's bytes or image.
    public func refreshMetadata(_ metadata: DiskCacheEntryMetadata, forKey key: String) async {
        if let entry = layeredMemoryCache.value(forKey: key) {
            let refreshed = ImageCacheEntry(image: entry.image, data: entry.data, metadata: metadata)
            layeredMemoryCache.setValue(refreshed, forKey: key, cost: refreshed.cost)
        }
        await withCheckedContinuation { continuation in
            ioQueue.async {
                try? self.diskStorage.setMetadata(metadata, forKey: key)
                continuation.resume()
            }
        }
    }
}
