import WebImageCore

/// Cuts every frame to a rectangle: one given by its position, or one of a size placed at
/// a gravity.
public struct CroppingImageTransformer: ImageTransformer {
    /// Where the rectangle is.
    public enum Placement: Sendable, Hashable {
        /// The rectangle's top-left corner, in pixels from the image's.
        case origin(x: Int, y: Int)
        /// The rectangle placed at a gravity: centred, at an edge or in a corner.
        case gravity(ImageGravity)
        /// The rectangle placed by an anchor: a gravity or a focus point.
        case anchor(CropAnchor)
    }

    /// Where the rectangle is.
    public var placement: Placement
    /// The rectangle's size.
    public var size: PixelSize

    /// Creates a transformer that keeps the rectangle at (`x`, `y`) of `size`.
    public init(x: Int, y: Int, size: PixelSize) {
        self.placement = .origin(x: x, y: y)
        self.size = size
    }

    /// Creates a transformer that keeps a rectangle of `size` placed at `gravity`.
    public init(size: PixelSize, gravity: ImageGravity) {
        self.placement = .gravity(gravity)
        self.size = size
    }

    /// Creates a transformer that keeps a rectangle of `size` placed by `anchor`.
    public init(size: PixelSize, anchor: CropAnchor) {
        self.placement = .anchor(anchor)
        self.size = size
    }

    /// `crop-X,Y,WxH`, `crop-WxH-GRAVITY` or `crop-WxH-ANCHOR`.
    public var key: String {
        switch placement {
        case let .origin(x, y): "crop-\(x),\(y),\(size.width)x\(size.height)"
        case let .gravity(gravity): "crop-\(size.width)x\(size.height)-\(gravity.rawValue)"
        case let .anchor(anchor): "crop-\(size.width)x\(size.height)-\(anchor.keyPart)"
        }
    }

    /// The image cut to the rectangle (clipped to the image); `nil` when nothing is left
    /// or the rectangle covers the whole image, or the cut copy or a smart crop's analysis
    /// cannot get the memory it needs.
    public func transform(_ image: Image) -> Image? {
        let x: Int, y: Int
        switch placement {
        case let .origin(originX, originY): (x, y) = (originX, originY)
        case let .gravity(gravity): (x, y) = gravity.origin(of: size, in: image.pixelSize)
        // One window for every frame: a smart crop looks at the first.
        case let .anchor(anchor):
            guard let origin = try? anchor.origin(of: size, in: image.bitmap) else { return nil }
            (x, y) = origin
        }
        let left = max(0, x), top = max(0, y)
        let right = min(image.pixelWidth, x + size.width), bottom = min(image.pixelHeight, y + size.height)
        guard right > left, bottom > top else { return nil }
        let kept = PixelSize(width: right - left, height: bottom - top)
        guard kept != image.pixelSize else { return nil }
        return (try? image.replacingFrames { bitmap throws(ImageError) in try bitmap.cropped(x: left, y: top, size: kept) })?
            .carryingCroppedGainMap(of: image, x: left, y: top, size: kept)
    }
}
