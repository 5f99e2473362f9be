import Foundation
import WebImageCore

/// Turns every frame clockwise by any angle.
///
/// Quarter turns move whole pixels (exactly as `Bitmap.oriented(_:)` does); other
/// angles sample the source bilinearly, colour premultiplied by alpha, with anti-aliased
/// edges over ``background``.
public struct RotatingImageTransformer: ImageTransformer {
    /// The angle in degrees, clockwise.
    public var degrees: Double
    /// Whether the canvas grows to hold the whole turned picture (`true`) or keeps the
    /// image's size, cutting off the corners (`false`).
    public var fitsCanvas: Bool
    /// The colour of the canvas the picture does not cover (clear by default).
    public var background: RGBA8

    /// Creates a transformer that turns images by `degrees` clockwise.
    public init(degrees: Double, fitsCanvas: Bool = true, background: RGBA8 = .clear) {
        self.degrees = degrees
        self.fitsCanvas = fitsCanvas
        self.background = background
    }

    /// `rotate-DEG`, then `-keep` when the canvas keeps its size and `-bgRRGGBBAA`.
    public var key: String {
        var key = "rotate-\(RoundedCornersImageTransformer.format(normalisedDegrees))"
        if !fitsCanvas { key += "-keep" }
        if background != .clear { key += "-bg\(background.hex)" }
        return key
    }

    /// The angle in `[0, 360)`.
    private var normalisedDegrees: Double {
        let turned = degrees.truncatingRemainder(dividingBy: 360)
        return turned < 0 ? turned + 360 : turned
    }

    /// The number of clockwise quarter turns this rotation is, when it moves whole pixels
    /// and keeps a turned picture whole (any quarter turn with ``fitsCanvas``, else only
    /// a half turn); `nil` for any other angle.
    package var quarterTurns: Int? {
        guard degrees.isFinite else { return nil }
        switch normalisedDegrees {
        case 0: return 0
        case 90 where fitsCanvas: return 1
        case 180: return 2
        case 270 where fitsCanvas: return 3
        default: return nil
        }
    }

    /// The image turned; `nil` for a whole number of turns or an angle that is not finite,
    /// or when the turn cannot get the memory it needs.
    public func transform(_ image: Image) -> Image? {
        guard degrees.isFinite else { return nil }
        let angle = normalisedDegrees
        guard angle != 0 else { return nil }
        let quarter: ImageOrientation? =
            switch angle {
            case 90: .right
            case 180: .down
            case 270: .left
            default: nil
            }
        if let quarter, fitsCanvas || quarter == .down || image.pixelWidth == image.pixelHeight {
            return (try? image.replacingFrames { bitmap throws(ImageError) in try bitmap.oriented(quarter) })?
                .carryingOrientedGainMap(of: image, quarter)
        }
        return
            (try? image.replacingFrames { bitmap throws(ImageError) in
                try bitmap.rotated(degrees: angle, fitsCanvas: fitsCanvas, background: background)
            })?.carryingRotatedGainMap(of: image, degrees: angle, fitsCanvas: fitsCanvas)
    }
}

extension Bitmap {
    /// This bitmap turned clockwise by `degrees`, sampled bilinearly.
    package func rotated(degrees: Double, fitsCanvas: Bool, background: RGBA8) throws(ImageError) -> Bitmap {
        let radians = degrees * .pi / 180
        let cosine = cos(radians), sine = sin(radians)
        let canvas: PixelSize
        if fitsCanvas {
            let w = Double(width), h = Double(height)
            canvas = PixelSize(
                width: max(1, Int((abs(w * cosine) + abs(h * sine) - 1e-6).rounded(.up))),
                height: max(1, Int((abs(w * sine) + abs(h * cosine) - 1e-6).rounded(.up)))
            )
        } else {
            canvas = size
        }
        guard width > 0, height > 0 else { return try Bitmap.filled(canvas, format: pixelFormat, with: background) }
        let source = try premultipliedFloats()
        defer { FloatPixelMemory.deallocate(source) }
        let sourceWidth = width, sourceHeight = height
        let backdrop = background.premultipliedFloats
        let centreX = Double(canvas.width) / 2, centreY = Double(canvas.height) / 2
        let sourceCentreX = Double(width) / 2, sourceCentreY = Double(height) / 2
        return try Bitmap(zeroedWidth: canvas.width, height: canvas.height, pixelFormat: pixelFormat).mappingRows(premultiplied: true) { y, row in
            let dy = Double(y) + 0.5 - centreY
            for x in 0..<canvas.width {
                let dx = Double(x) + 0.5 - centreX
                // Turning the output point back (counter-clockwise) finds its source.
                let sourceX = Float(dx * cosine + dy * sine + sourceCentreX - 0.5)
                let sourceY = Float(-dx * sine + dy * cosine + sourceCentreY - 0.5)
                let pixel = Bitmap.sample(source, width: sourceWidth, height: sourceHeight, x: sourceX, y: sourceY)
                row[x] = pixel + backdrop * (1 - pixel.w)
            }
        }
    }

    /// The pixels as premultiplied floats, row after row; the caller releases them with
    /// `FloatPixelMemory.deallocate(_:)`.
    package func premultipliedFloats() throws(ImageError) -> UnsafeMutablePointer<SIMD4<Float>> {
        let floats = try FloatPixelMemory.allocate(width * height)
        let width = self.width, format = pixelFormat
        pixels.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            ParallelRows.forEachBand(of: height, pixelsPerItem: width) { band in
                for y in band {
                    Bitmap.unpackRow(y, of: base, width: width, format: format, into: floats + y * width, premultiplying: true)
                }
            }
        }
        return floats
    }

    /// Bilinear sample at (`x`, `y`) in pixel-centre coordinates; outside is clear.
    @inline(__always)
    private static func sample(
        _ pixels: UnsafePointer<SIMD4<Float>>, width: Int, height: Int, x: Float, y: Float
    ) -> SIMD4<Float> {
        let left = Int(x.rounded(.down)), top = Int(y.rounded(.down))
        guard left >= -1, top >= -1, left < width, top < height else { return SIMD4() }
        let fx = x - Float(left), fy = y - Float(top)
        func at(_ px: Int, _ py: Int) -> SIMD4<Float> {
            px >= 0 && py >= 0 && px < width && py < height ? pixels[py * width + px] : SIMD4()
        }
        let upper = at(left, top) * (1 - fx) + at(left + 1, top) * fx
        let lower = at(left, top + 1) * (1 - fx) + at(left + 1, top + 1) * fx
        return upper * (1 - fy) + lower * fy
    }
}
