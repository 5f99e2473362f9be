import Foundation

/// What a cache query found: the image, the bytes it came from when the cache has them,
/// and the level that answered.
public struct ImageCacheResult: Sendable {
    /// The decoded image.
    public let image: Image
    /// The original bytes: always for a disk hit, and for a memory hit of an animated
    /// image stored with its bytes; otherwise `nil`.
    public let data: Data?
    /// ``ImageCacheType/memory`` or ``ImageCacheType/disk``.
    public let cacheType: ImageCacheType
    /// The HTTP facts the entry was stored with (validators, freshness); `nil` when it was
    /// stored without any.
    public let metadata: DiskCacheEntryMetadata?

    /// Creates a result.
    public init(image: Image, data: Data?, cacheType: ImageCacheType, metadata: DiskCacheEntryMetadata? = nil) {
        self.image = image
        self.data = data
        self.cacheType = cacheType
        self.metadata = metadata
    }
}
