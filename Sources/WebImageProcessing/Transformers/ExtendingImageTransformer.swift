import WebImageCore

/// Places every frame on a canvas at least as large as a size, at a gravity, the rest
/// filled with a background colour; a picture already larger along a side keeps that side
/// (nothing is cropped). After `resize=400` it makes a 400×300 box whatever the
/// picture's aspect ratio (imgproxy's `extend`).
public struct ExtendingImageTransformer: ImageTransformer {
    /// The smallest canvas.
    public var size: PixelSize
    /// Where the picture sits on the canvas.
    public var gravity: ImageGravity
    /// The colour around the picture (clear by default).
    public var background: RGBA8
    /// Whether the colour around the picture is instead the picture's mean colour (each
    /// channel's 8-bit values averaged, rounded down, over every pixel of the first frame,
    /// opaque) — thumbor's `fill(auto)`; `bg=auto` in a transform spec.
    public var fillsWithMeanColour = false

    /// Creates a transformer extending the canvas to `size`.
    public init(size: PixelSize, gravity: ImageGravity = .center, background: RGBA8 = .clear) {
        self.size = size
        self.gravity = gravity
        self.background = background
    }

    /// `extend-WxH-GRAVITY`, then `-bgauto` for the mean colour or `-bgRRGGBBAA` when the
    /// background is not clear.
    public var key: String {
        "extend-\(size.width)x\(size.height)-\(gravity.rawValue)"
            + (fillsWithMeanColour ? "-bgauto" : background != .clear ? "-bg\(background.hex)" : "")
    }

    /// The canvas an image of `picture` is placed on.
    public func canvas(for picture: PixelSize) -> PixelSize {
        PixelSize(width: max(size.width, picture.width), height: max(size.height, picture.height))
    }

    /// The image on its canvas; `nil` when the picture already covers the size, or when
    /// the canvas cannot get the memory it needs.
    public func transform(_ image: Image) -> Image? {
        let canvas = canvas(for: image.pixelSize)
        guard canvas != image.pixelSize else { return nil }
        let origin = gravity.origin(of: image.pixelSize, in: canvas)
        let background = fillsWithMeanColour ? image.bitmap.meanColour : background
        return
            (try? image.replacingFrames { bitmap throws(ImageError) in
                try Bitmap.filled(canvas, format: bitmap.pixelFormat, with: background).drawing(bitmap, atX: origin.x, y: origin.y)
            })?.carryingPlacedGainMap(of: image, canvas: canvas, x: origin.x, y: origin.y)
    }
}
