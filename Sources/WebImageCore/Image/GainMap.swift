/// An HDR gain map: a second, usually smaller picture that tells a display able to show
/// HDR how much to brighten each part of the primary image (Ultra HDR, ISO 21496-1).
///
/// The map covers the same area as the primary, at its own resolution: the ratio of its
/// size to the primary's need not be an integer, and may be above 1. Every geometric step
/// applies to it in step with the primary (see ``Image/carryingGainMap(of:through:)``);
/// colour steps leave it as it is.
public struct GainMap: Sendable, Hashable {
    /// The map's pixels, upright like the primary's: a one-channel map has equal red,
    /// green and blue.
    public var bitmap: Bitmap
    /// What the source said about the map.
    public var metadata: GainMapMetadata

    /// Creates a gain map from its pixels and metadata.
    public init(bitmap: Bitmap, metadata: GainMapMetadata) {
        self.bitmap = bitmap
        self.metadata = metadata
    }

    /// The map's size in pixels.
    public var pixelSize: PixelSize { bitmap.size }
}
