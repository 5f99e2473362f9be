import WebImageCore

/// Adds a value of its own to each colour channel of every pixel, alpha kept: thumbor's
/// `rgb(r,g,b)` filter, `rgb=R,G,B` in a transform spec.
public struct ChannelOffsetImageTransformer: ImageTransformer {
    /// Added to the red channel: -1 (none left) to 1 (full).
    public var red: Double
    /// Added to the green channel, from -1 to 1.
    public var green: Double
    /// Added to the blue channel, from -1 to 1.
    public var blue: Double

    /// Creates a transformer adding `red`, `green` and `blue` (each -1 to 1) to the channels.
    public init(red: Double, green: Double, blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// `rgb-R,G,B` with the three offsets.
    public var key: String {
        let format = RoundedCornersImageTransformer.format
        return "rgb-\(format(red)),\(format(green)),\(format(blue))"
    }

    /// The image with its channels moved; `nil` when every offset is 0.
    public func transform(_ image: Image) -> Image? {
        guard red != 0 || green != 0 || blue != 0 else { return nil }
        let offset = SIMD4<Float>(Float(red), Float(green), Float(blue), 0)
        return image.replacingFrames { bitmap in
            bitmap.mappingRows(premultiplied: false) { _, row in
                for x in 0..<bitmap.width { row[x] += offset }
            }
        }
    }
}
