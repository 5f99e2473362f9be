import Foundation

extension ImageCache {
    /// The caller's bytes kept with `key`'s entry (its metadata's
    /// ``DiskCacheEntryMetadata/extendedData``): from memory when the entry is there, else
    /// from disk, read on the I/O queue; `nil` when there is no entry or no such bytes.
    public func extendedData(forKey key: String) async -> Data? {
        if let entry = layeredMemoryCache.value(forKey: key) {
            return entry.metadata?.extendedData
        }
        return await metadata(forKey: key)?.extendedData
    }

    /// Keeps `extendedData` with `key`'s entry (or, with `nil`, drops the bytes kept there),
    /// in memory and on disk, leaving the entry's image, bytes and other metadata alone.
    /// The bytes go with the entry from then on: returned with every hit
    /// (``ImageCacheResult/metadata``) and removed with it.
    ///
    /// - Throws: `ImageError.Code.notFound` when neither level holds an entry for `key`;
    ///   `ImageError.Code.fileSystem` when the disk cannot keep them.
    public func setExtendedData(_ extendedData: Data?, forKey key: String) async throws(ImageError) {
        let isInMemory =
            layeredMemoryCache.value(forKey: key).map { entry in
                var metadata = entry.metadata ?? DiskCacheEntryMetadata()
                metadata.extendedData = extendedData
                let changed = ImageCacheEntry(image: entry.image, data: entry.data, metadata: metadata)
                layeredMemoryCache.setValue(changed, forKey: key, cost: changed.cost)
                return true
            } ?? false
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, ImageError>, Never>) in
            ioQueue.async { [self] in
                guard diskStorage.containsData(forKey: key) else {
                    continuation.resume(returning: isInMemory ? .success(()) : .failure(ImageError(.notFound, "the cache has no entry for \(key)")))
                    return
                }
                var metadata = diskStorage.metadata(forKey: key) ?? DiskCacheEntryMetadata()
                metadata.extendedData = extendedData
                do throws(ImageError) {
                    try diskStorage.setMetadata(metadata, forKey: key)
                    continuation.resume(returning: .success(()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        try outcome.get()
    }
}
