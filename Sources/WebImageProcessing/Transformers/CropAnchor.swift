import WebImageCore

/// Where a crop window sits in a picture larger than it: at a gravity, centred on a
/// focus point (imgproxy's `gravity:fp:X:Y`) or on a pixel (thumbor's focal points) as far
/// as the picture's edges allow, or where a smart crop finds the picture most interesting
/// (imgproxy's `gravity:sm`).
public enum CropAnchor: Sendable, Hashable {
    /// At a gravity: centred, at an edge or in a corner.
    case gravity(ImageGravity)
    /// Centred on the point at (`x`, `y`), fractions of the picture's width and height
    /// from its top-left corner (0 to 1), then moved inside the picture.
    case focus(x: Double, y: Double)
    /// Centred on the pixel at (`x`, `y`) of the picture the transformer receives (a
    /// resize's source, before it is scaled), then moved inside the picture.
    case point(x: Int, y: Int)
    /// Where ``SmartCropStrategy`` finds the most interesting window of the picture.
    case smart(SmartCropStrategy)

    /// The anchor's part of a transformer's key: the gravity's name, or `fpX,Y`.
    public var keyPart: String {
        switch self {
        case let .gravity(gravity): gravity.rawValue
        case let .focus(x, y): "fp\(x),\(y)"
        case let .point(x, y): "pt\(x),\(y)"
        case .smart(.attention): "smart"
        case let .smart(strategy): "smart-\(strategy.rawValue)"
        }
    }

    /// The top-left position of a window of `inner` in `bitmap`: a smart crop looks at
    /// its pixels, the other anchors only at its size. Throws what the smart crop's
    /// analysis throws.
    public func origin(of inner: PixelSize, in bitmap: Bitmap) throws(ImageError) -> (x: Int, y: Int) {
        guard case let .smart(strategy) = self else { return origin(of: inner, in: bitmap.size) }
        return try strategy.origin(of: inner, in: bitmap)
    }

    /// The top-left position of a window of `inner` in a picture of `outer`: for a focus
    /// point, clamped so that the window stays inside whenever it fits; a smart crop,
    /// which needs the pixels, is placed at the centre here (the window's size, which is
    /// all a plan needs, is the same).
    public func origin(of inner: PixelSize, in outer: PixelSize) -> (x: Int, y: Int) {
        switch self {
        case .smart:
            return ImageGravity.center.origin(of: inner, in: outer)
        case let .gravity(gravity):
            return gravity.origin(of: inner, in: outer)
        case .point:
            guard outer.width > 0, outer.height > 0 else { return ImageGravity.center.origin(of: inner, in: outer) }
            return inPicture(of: outer).origin(of: inner, in: outer)
        case let .focus(x, y):
            func axis(_ fraction: Double, _ window: Int, _ picture: Int) -> Int {
                guard window < picture else { return (picture - window) / 2 }
                let centred = Int((fraction * Double(picture) - Double(window) / 2).rounded())
                return min(max(0, centred), picture - window)
            }
            return (axis(x, inner.width, outer.width), axis(y, inner.height, outer.height))
        }
    }

    /// The anchor for a picture of `source` scaled to any size: a point of `source` as the
    /// focus point it is in every scaled copy (a window centred on pixel `x` starts at
    /// `x` less half its width, rounded); every other anchor as it is.
    func inPicture(of source: PixelSize) -> CropAnchor {
        guard case let .point(x, y) = self, source.width > 0, source.height > 0 else { return self }
        return .focus(x: Double(x) / Double(source.width), y: Double(y) / Double(source.height))
    }
}
