import Foundation

/// What the memory cache of an ``ImageCache`` holds for a key: the image, and for an
/// animated image the original bytes too, so a hit can hand them out without a disk read.
///
/// A class, and immutable: a memory hit hands out one reference rather than copying the
/// image, the bytes and the HTTP facts each time.
public final class ImageCacheEntry: Sendable {
    /// The decoded image.
    public let image: Image
    /// The original bytes, kept for an animated image.
    public let data: Data?
    /// The HTTP facts the image was stored with, for its freshness.
    public let metadata: DiskCacheEntryMetadata?
    /// Whether ``metadata`` is set: asked by every memory hit, which then skips copying the
    /// metadata when there is none.
    let hasMetadata: Bool

    /// Creates an entry.
    public init(image: Image, data: Data?, metadata: DiskCacheEntryMetadata?) {
        self.image = image
        self.data = data
        self.metadata = metadata
        hasMetadata = metadata != nil
    }

    /// What the entry costs the memory cache: its pixels plus any bytes kept (an image
    /// decoded frame by frame already counts its bytes in its `Image/memoryCost`).
    public var cost: Int { image.memoryCost + (image.animation == nil ? data?.count ?? 0 : 0) }

    /// The image a load may take from this entry: `nil` when the image is decoded frame by
    /// frame (`Image.animation`) and the load does not ask for that, since it needs every
    /// frame decoded, or when it is an animation decoded whole and the load requires frames
    /// on demand; only the first frame when the load asks for that alone.
    func image(decodingFramesOnDemand: Bool, requiringFramesOnDemand: Bool = false, firstFrameOnly: Bool) -> Image? {
        if image.animation != nil, !decodingFramesOnDemand {
            return nil
        }
        if decodingFramesOnDemand, requiringFramesOnDemand, !firstFrameOnly, image.animation == nil, image.isAnimated {
            return nil
        }
        guard firstFrameOnly, image.isAnimated else { return image }
        return Image(
            frames: [image.frames[0]], loopCount: image.loopCount, scale: image.scale,
            orientation: image.orientation, format: image.format, hasAlpha: image.hasAlpha,
            colorProfile: image.colorProfile
        )
    }
}
