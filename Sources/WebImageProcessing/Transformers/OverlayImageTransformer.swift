import WebImageCore

/// Draws another image over every frame: a watermark or a badge, placed at a gravity,
/// moved by an offset, with an opacity.
public struct OverlayImageTransformer: ImageTransformer {
    /// The image drawn on top (its first frame), at its own size.
    public var overlay: Image
    /// Names the overlay in ``key``, so that two overlays give two cache entries (for
    /// example its file name or URL).
    public var name: String
    /// Where the overlay sits on the image.
    public var gravity: ImageGravity
    /// Pixels the overlay moves from its gravity position, inwards for an edge or corner
    /// gravity (right for ``ImageGravity/center``).
    public var offsetX: Int
    /// Pixels the overlay moves from its gravity position, inwards for an edge or corner
    /// gravity (down for ``ImageGravity/center``).
    public var offsetY: Int
    /// How opaque the overlay is, from 0 (invisible) to 1.
    public var opacity: Double

    /// Creates a transformer that draws `overlay`, known as `name`, over images.
    public init(
        overlay: Image, name: String, gravity: ImageGravity = .bottomRight,
        offsetX: Int = 0, offsetY: Int = 0, opacity: Double = 1
    ) {
        self.overlay = overlay
        self.name = name
        self.gravity = gravity
        self.offsetX = offsetX
        self.offsetY = offsetY
        self.opacity = opacity
    }

    /// `overlay-NAME-GRAVITY-X,Y-OPACITY`.
    public var key: String {
        "overlay-\(name)-\(gravity.rawValue)-\(offsetX),\(offsetY)-\(RoundedCornersImageTransformer.format(opacity))"
    }

    /// The image with the overlay drawn on each frame; `nil` when the overlay is
    /// invisible or falls outside.
    public func transform(_ image: Image) -> Image? {
        let opacity = Float(min(max(opacity, 0), 1))
        guard opacity > 0, opacity.isFinite else { return nil }
        let top = overlay.bitmap
        var (x, y) = gravity.origin(of: top.size, in: image.pixelSize)
        switch gravity {
        case .right, .topRight, .bottomRight: x -= offsetX
        default: x += offsetX
        }
        switch gravity {
        case .bottom, .bottomLeft, .bottomRight: y -= offsetY
        default: y += offsetY
        }
        guard x < image.pixelWidth, y < image.pixelHeight, x + top.width > 0, y + top.height > 0 else { return nil }
        return image.replacingFrames { $0.drawing(top, atX: x, y: y, opacity: opacity) }
    }
}
