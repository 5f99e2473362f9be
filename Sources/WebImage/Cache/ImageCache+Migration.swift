import Foundation

extension ImageCache {
    /// Moves the entries of the folder an older version of the program kept this cache in
    /// into the cache's own folder, then deletes the old folder (SDWebImage's disk cache
    /// migration); see ``DiskCache/migrateEntries(from:)``. Entries the cache already holds
    /// are newer and stay. Runs on the cache's I/O queue, behind the disk work queued
    /// before it and ahead of the work queued after.
    ///
    /// - Parameter oldDirectory: The old cache folder itself (its namespace folder, where
    ///   the entry files are).
    /// - Returns: The number of entries moved in.
    /// - Throws: `ImageError.Code.fileSystem` when an entry cannot be moved;
    ///   `ImageError.Code.refused` when the disk level is not the built-in ``DiskCache``,
    ///   whose file layout the old folder has.
    @discardableResult
    public func migrateDiskCache(from oldDirectory: URL) async throws(ImageError) -> Int {
        guard let diskCache else {
            throw ImageError(.refused, "only the built-in DiskCache can take in an old cache folder")
        }
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Int, ImageError>, Never>) in
            ioQueue.async {
                do throws(ImageError) {
                    continuation.resume(returning: .success(try diskCache.migrateEntries(from: oldDirectory)))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try outcome.get()
    }
}
