import WebImageCore

/// Adjusts the saturation, contrast and brightness of every frame, in that order.
public struct ColorControlsImageTransformer: ImageTransformer {
    /// Added to every channel: -1 (black) to 1 (white); 0 leaves the image as it is.
    public var brightness: Double
    /// Distance from mid-grey is multiplied by this: 0 is flat grey, 1 leaves the image as
    /// it is, above 1 strengthens contrast.
    public var contrast: Double
    /// Distance from the pixel's luma is multiplied by this: 0 is greyscale, 1 leaves the
    /// image as it is, above 1 strengthens colour.
    public var saturation: Double

    /// Creates a transformer; each default leaves its control unchanged.
    public init(brightness: Double = 0, contrast: Double = 1, saturation: Double = 1) {
        self.brightness = brightness
        self.contrast = contrast
        self.saturation = saturation
    }

    /// `color-bB-cC-sS` with the three numbers.
    public var key: String {
        let format = RoundedCornersImageTransformer.format
        return "color-b\(format(brightness))-c\(format(contrast))-s\(format(saturation))"
    }

    /// The adjusted image; `nil` when every control is neutral.
    public func transform(_ image: Image) -> Image? {
        guard !isNeutral else { return nil }
        return image.replacingFrames { bitmap in
            bitmap.mappingRows(premultiplied: false) { _, row in adjust(row, count: bitmap.width) }
        }
    }

    /// Whether every control leaves the image as it is.
    var isNeutral: Bool { brightness == 0 && contrast == 1 && saturation == 1 }

    /// Adjusts `count` pixels of a row (straight colour, 0–1) in place.
    func adjust(_ row: UnsafeMutablePointer<SIMD4<Float>>, count: Int) {
        let brightness = Float(brightness), contrast = Float(contrast), saturation = Float(saturation)
        for x in 0..<count {
            let pixel = row[x]
            let luma = SIMD4<Float>(repeating: Bitmap.luma(pixel))
            var adjusted = luma + (pixel - luma) * saturation
            adjusted = (adjusted - 0.5) * contrast + 0.5 + brightness
            adjusted.w = pixel.w
            row[x] = adjusted
        }
    }
}
