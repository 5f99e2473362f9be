import WebImageCore

/// Adds a margin around every frame: the canvas grows by the four sides' widths and the
/// margin is filled with a background colour (imgproxy's `padding`).
public struct PaddingImageTransformer: ImageTransformer {
    /// The margin above, in pixels.
    public var top: Int
    /// The margin on the right, in pixels.
    public var right: Int
    /// The margin below, in pixels.
    public var bottom: Int
    /// The margin on the left, in pixels.
    public var left: Int
    /// The colour of the margin (clear by default).
    public var background: RGBA8

    /// Creates a transformer adding margins of the given widths, filled with `background`.
    public init(top: Int, right: Int, bottom: Int, left: Int, background: RGBA8 = .clear) {
        self.top = top
        self.right = right
        self.bottom = bottom
        self.left = left
        self.background = background
    }

    /// `pad-T,R,B,L`, then `-bgRRGGBBAA` when the background is not clear.
    public var key: String {
        "pad-\(top),\(right),\(bottom),\(left)" + (background != .clear ? "-bg\(background.hex)" : "")
    }

    /// The size an image of `size` has once padded.
    public func paddedSize(_ size: PixelSize) -> PixelSize {
        PixelSize(width: size.width + left + right, height: size.height + top + bottom)
    }

    /// The image on its larger canvas; `nil` when every margin is 0, or when the canvas
    /// cannot get the memory it needs.
    public func transform(_ image: Image) -> Image? {
        guard top > 0 || right > 0 || bottom > 0 || left > 0 else { return nil }
        return
            (try? image.replacingFrames { bitmap throws(ImageError) in
                try Bitmap.filled(paddedSize(bitmap.size), format: bitmap.pixelFormat, with: background)
                    .drawing(bitmap, atX: left, y: top)
            })?.carryingPlacedGainMap(of: image, canvas: paddedSize(image.pixelSize), x: left, y: top)
    }
}
