import Foundation

/// What the memory level of an ``ImageCache`` holds for a key: the image, and for an
/// animated image the original bytes too, so a hit can hand them out without a disk read.
struct ImageCacheEntry: Sendable {
    let image: Image
    let data: Data?
    /// The HTTP facts the image was stored with, for its freshness.
    let metadata: DiskCacheEntryMetadata?

    /// What the entry costs the memory cache: its pixels plus any bytes kept (an image
    /// decoded frame by frame already counts its bytes in its `Image/memoryCost`).
    var cost: Int { image.memoryCost + (image.animation == nil ? data?.count ?? 0 : 0) }
}
