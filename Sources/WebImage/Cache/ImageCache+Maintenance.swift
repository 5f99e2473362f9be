import Foundation

extension ImageCache {
    /// Removes the entry for `key` from the levels `scope` names. Memory is cleared before
    /// this method returns; `completion` runs on `callbackQueue` once the disk is done.
    public func removeImage(
        forKey key: String,
        scope: ImageCacheType = .all,
        callbackQueue: DispatchQueue = .global(qos: .userInitiated),
        completion: (@Sendable () -> Void)? = nil
    ) {
        if scope.includesMemory {
            layeredMemoryCache.removeValue(forKey: key)
        }
        guard scope.includesDisk else {
            if let completion { callbackQueue.async(execute: completion) }
            return
        }
        ioQueue.async { [self] in
            diskStorage.removeData(forKey: key)
            if let completion { callbackQueue.async(execute: completion) }
        }
    }

    /// Empties the memory cache, at once (for example when the system is short of memory).
    public func clearMemory() {
        layeredMemoryCache.removeAll()
    }

    /// Empties the disk level; the old files are deleted in the background.
    public func clearDisk(
        callbackQueue: DispatchQueue = .global(qos: .userInitiated),
        completion: (@Sendable () -> Void)? = nil
    ) {
        ioQueue.async { [self] in
            diskStorage.removeAll()
            if let completion { callbackQueue.async(execute: completion) }
        }
    }

    /// Cleans the disk level as SDWebImage does: expired entries first, then the oldest until
    /// the folder is under half of ``ImageCacheConfiguration/maxDiskSize``. It runs on the disk
    /// cache's maintenance queue, so lookups go on meanwhile (on the I/O queue for another
    /// ``ImageDiskStorage``).
    public func deleteOldFiles(
        callbackQueue: DispatchQueue = .global(qos: .userInitiated),
        completion: (@Sendable () -> Void)? = nil
    ) {
        guard let diskCache else {
            ioQueue.async { [self] in
                diskStorage.removeExpiredData()
                if let completion { callbackQueue.async(execute: completion) }
            }
            return
        }
        diskCache.removeExpiredData {
            if let completion { callbackQueue.async(execute: completion) }
        }
    }

    /// Tells `completion`, on `callbackQueue`, whether the disk holds an entry for `key`
    /// (in the cache's folder or a read-only one).
    public func diskImageExists(
        forKey key: String,
        callbackQueue: DispatchQueue = .global(qos: .userInitiated),
        completion: @escaping @Sendable (Bool) -> Void
    ) {
        ioQueue.async { [self] in
            let exists = diskStorage.containsData(forKey: key)
            callbackQueue.async { completion(exists) }
        }
    }

    /// Counts the disk entries and their bytes, and tells `completion` on `callbackQueue`.
    public func calculateDiskSize(
        callbackQueue: DispatchQueue = .global(qos: .userInitiated),
        completion: @escaping @Sendable (_ count: Int, _ size: Int) -> Void
    ) {
        ioQueue.async { [self] in
            let (count, size) = diskStorage.measure()
            callbackQueue.async { completion(count, size) }
        }
    }

    /// The path of the file that holds (or would hold) the disk entry for `key`; `nil` when
    /// the disk level is not the built-in ``DiskCache``.
    public func cachePath(forKey key: String) -> String? {
        diskCache?.cachePath(forKey: key)
    }
}
