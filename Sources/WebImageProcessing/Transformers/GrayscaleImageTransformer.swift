import WebImageCore

/// Turns every frame grey: each pixel's colour becomes its Rec. 709 luma, alpha kept.
public struct GrayscaleImageTransformer: ImageTransformer {
    /// Creates a transformer that removes colour.
    public init() {}

    /// `grayscale`.
    public var key: String { "grayscale" }

    /// The image in shades of grey.
    public func transform(_ image: Image) -> Image? {
        image.replacingFrames { bitmap in
            bitmap.mappingRows(premultiplied: false) { _, row in Self.removeColour(row, count: bitmap.width) }
        }
    }

    /// Turns `count` pixels of a row (straight colour, 0–1) grey in place.
    static func removeColour(_ row: UnsafeMutablePointer<SIMD4<Float>>, count: Int) {
        for x in 0..<count {
            let pixel = row[x]
            let luma = Bitmap.luma(pixel)
            row[x] = SIMD4(luma, luma, luma, pixel.w)
        }
    }
}

extension Bitmap {
    /// The Rec. 709 luma of a pixel's colour.
    @inline(__always)
    static func luma(_ pixel: SIMD4<Float>) -> Float {
        0.2126 * pixel.x + 0.7152 * pixel.y + 0.0722 * pixel.z
    }
}
