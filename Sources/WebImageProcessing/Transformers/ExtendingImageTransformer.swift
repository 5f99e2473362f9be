import Foundation
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
    /// Whether the canvas is instead the picture itself, blurred as thumbor's `fill(blur)`
    /// blurs it — a Gaussian of radius and sigma 50 cut at its radius, across then down, in
    /// thumbor's 8-bit arithmetic (see ``ConvolvingImageTransformer``) — and stretched to
    /// the canvas; `bg=blur` in a transform spec.
    public var fillsWithBlurredPicture = false

    /// Creates a transformer extending the canvas to `size`.
    public init(size: PixelSize, gravity: ImageGravity = .center, background: RGBA8 = .clear) {
        self.size = size
        self.gravity = gravity
        self.background = background
    }

    /// `extend-WxH-GRAVITY`, then `-bgblur` for the blurred picture, `-bgauto` for the mean
    /// colour or `-bgRRGGBBAA` when the background is not clear.
    public var key: String {
        "extend-\(size.width)x\(size.height)-\(gravity.rawValue)"
            + (fillsWithBlurredPicture
                ? "-bgblur" : fillsWithMeanColour ? "-bgauto" : background != .clear ? "-bg\(background.hex)" : "")
    }

    /// thumbor's blur kernel for `fill(blur)`: 101 weights of a Gaussian of sigma 50.
    private static let blurWeights: [Double] = {
        let weights = (-50...50).map { offset in exp(-Double(offset * offset) / (2 * 50 * 50)) }
        let sum = weights.reduce(0, +)
        return weights.map { $0 / sum }
    }()

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
        let blurs = fillsWithBlurredPicture
        return
            (try? image.replacingFrames { bitmap throws(ImageError) in
                guard blurs else {
                    return try Bitmap.filled(canvas, format: bitmap.pixelFormat, with: background).drawing(bitmap, atX: origin.x, y: origin.y)
                }
                let across = ConvolvingImageTransformer.convolved(bitmap, weights: Self.blurWeights, columns: Self.blurWeights.count)
                let blurred = ConvolvingImageTransformer.convolved(across, weights: Self.blurWeights, columns: 1)
                return try blurred.resized(to: canvas).drawing(bitmap, atX: origin.x, y: origin.y)
            })?.carryingPlacedGainMap(of: image, canvas: canvas, x: origin.x, y: origin.y)
    }
}
