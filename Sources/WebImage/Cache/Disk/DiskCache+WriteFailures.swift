import Foundation

extension DiskCache {
    /// Called with every change to the folder the file system refuses: each failed store,
    /// and removals that fail (at most once per clear, clean or trim). It runs on the
    /// thread that did the work (the cache's I/O or maintenance queue), so it should
    /// return quickly. `nil` (the default) reports nothing.
    public var writeFailureHandler: (@Sendable (DiskCacheWriteFailure) -> Void)? {
        get { writeFailureObserver.withLockedValue { $0 } }
        set { writeFailureObserver.withLockedValue { $0 = newValue } }
    }

    /// Stores `data` for `key` atomically, with optional `metadata`, replacing any entry.
    ///
    /// When the store pushes the folder past ``maxSize``, a trim starts in the background.
    /// A failure is reported to ``writeFailureHandler`` as well as thrown.
    ///
    /// - Throws: `ImageError.Code.fileSystem` when the file cannot be written.
    public func store(_ data: Data, forKey key: String, metadata: DiskCacheEntryMetadata? = nil) throws(ImageError) {
        do {
            try writeEntry(data, forKey: key, metadata: metadata)
        } catch {
            reportWriteFailure(.store(key: key), error)
            throw error
        }
    }

    /// Tells ``writeFailureHandler`` that `operation` failed with `error`.
    func reportWriteFailure(_ operation: DiskCacheWriteFailure.Operation, _ error: ImageError) {
        writeFailureHandler?(DiskCacheWriteFailure(operation: operation, directory: directory, error: error))
    }
}
