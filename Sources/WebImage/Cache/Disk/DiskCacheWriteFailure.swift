import Foundation

/// A change to a ``DiskCache`` folder that the file system refused: a store that could not
/// be written, or entries that could not be removed. Reported to
/// ``DiskCache/writeFailureHandler`` as it happens.
public struct DiskCacheWriteFailure: Sendable {
    /// What the cache was doing.
    public enum Operation: Sendable, Hashable {
        /// Storing the entry for this key; the entry is not cached.
        case store(key: String)
        /// Removing entries: clearing, cleaning or trimming the folder.
        case removal
    }

    /// What the cache was doing.
    public let operation: Operation
    /// The cache's folder.
    public let directory: URL
    /// Why it failed (`ImageError.Code.fileSystem`, with the system's reason).
    public let error: ImageError
}
