import WebImageCore

/// Cuts every frame to the largest centred circle: a square crop around the centre whose
/// outside is clear, optionally with a border along the circle.
public struct CircleImageTransformer: ImageTransformer {
    /// A line along the inside of the circle, or `nil` for none.
    public var border: ImageBorder?

    /// Creates a transformer that cuts images to a circle.
    public init(border: ImageBorder? = nil) {
        self.border = border
    }

    /// `circle`, plus the border when there is one.
    public var key: String { "circle" + (border?.keySuffix ?? "") }

    /// The image cut to a circle, as a square of its shorter side; `nil` when the square
    /// cannot get the memory it needs.
    public func transform(_ image: Image) -> Image? {
        let side = min(image.pixelWidth, image.pixelHeight)
        guard side > 0 else { return nil }
        let square = PixelSize(width: side, height: side)
        let origin = ImageGravity.center.origin(of: square, in: image.pixelSize)
        return
            (try? image.replacingFrames { bitmap throws(ImageError) in
                try bitmap.cropped(x: origin.x, y: origin.y, size: square)
                    .clippedToRoundedRectangle(radius: Double(side) / 2, corners: .all, border: border)
            })?.carryingCroppedGainMap(of: image, x: origin.x, y: origin.y, size: square)
    }
}
