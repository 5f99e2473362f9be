import Foundation

/// What the memory level of an ``ImageCache`` holds for a key: the image, and for an
/// animated image the original bytes too, so a hit can hand them out without a disk read.
public struct ImageCacheEntry: Sendable {
    /// The decoded image.
    public let image: Image
    /// The original bytes, kept for an animated image.
    public let data: Data?
    /// The HTTP facts the image was stored with, for its freshness.
    public let metadata: DiskCacheEntryMetadata?

    /// Creates an entry.
    public init(image: Image, data: Data?, metadata: DiskCacheEntryMetadata?) {
        self.image = image
        self.data = data
        self.metadata = metadata
    }

    /// What the entry costs the memory cache: its pixels plus any bytes kept (an image
    /// decoded frame by frame already counts its bytes in its `Image/memoryCost`).
    public var cost: Int { image.memoryCost + (image.animation == nil ? data?.count ?? 0 : 0) }
}
