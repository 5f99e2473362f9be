import WebImageCore

/// Removes uniform borders: the rows and columns at the edges whose every pixel is within
/// a threshold of the top-left pixel's colour, on every channel, alpha included
/// (imgproxy's and thumbor's `trim`). An animation keeps the rectangle that holds every
/// frame's content.
public struct TrimmingImageTransformer: ImageTransformer {
    /// The largest difference, per 8-bit channel, still counted as the border's colour
    /// (0 to 255).
    public var threshold: Int

    /// The threshold of `trim` without a value.
    public static let defaultThreshold = 10

    /// Creates a transformer removing borders within `threshold` of the top-left colour.
    public init(threshold: Int = TrimmingImageTransformer.defaultThreshold) {
        self.threshold = threshold
    }

    /// `trim-N`.
    public var key: String { "trim-\(threshold)" }

    /// The image without its borders; `nil` when there are none or when the whole picture
    /// is the border's colour, or when the trimmed copy cannot get the memory it needs.
    public func transform(_ image: Image) -> Image? {
        guard let box = contentBox(of: image), box.size != image.pixelSize else { return nil }
        return (try? image.replacingFrames { bitmap throws(ImageError) in try bitmap.cropped(x: box.x, y: box.y, size: box.size) })?
            .carryingCroppedGainMap(of: image, x: box.x, y: box.y, size: box.size)
    }

    /// The rectangle holding every pixel that differs from the border's colour by more
    /// than ``threshold``, over all frames; `nil` when there is none, or when an 8-bit copy
    /// of a frame cannot be had.
    public func contentBox(of image: Image) -> (x: Int, y: Int, size: PixelSize)? {
        guard image.pixelWidth > 0, image.pixelHeight > 0 else { return nil }
        let reference = image.bitmap.rgba8(x: 0, y: 0)
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for frame in image.frames {
            guard let bitmap = try? frame.bitmap.convertedToRGBA8() else { return nil }
            let limit = threshold
            bitmap.pixels.withUnsafeBytes { bytes in
                let reference = SIMD4<Int16>(Int16(reference.red), Int16(reference.green), Int16(reference.blue), Int16(reference.alpha))
                for y in 0..<bitmap.height {
                    let row = y * bitmap.width * 4
                    var first = -1, last = -1
                    for x in 0..<bitmap.width {
                        let offset = row + x * 4
                        let pixel = SIMD4<Int16>(Int16(bytes[offset]), Int16(bytes[offset + 1]), Int16(bytes[offset + 2]), Int16(bytes[offset + 3]))
                        let difference = pixel &- reference
                        let magnitude = difference.replacing(with: 0 &- difference, where: difference .< 0)
                        if magnitude.max() > Int16(limit) {
                            if first < 0 { first = x }
                            last = x
                        }
                    }
                    guard first >= 0 else { continue }
                    minX = min(minX, first)
                    maxX = max(maxX, last)
                    minY = min(minY, y)
                    maxY = max(maxY, y)
                }
            }
        }
        guard maxX >= 0 else { return nil }
        return (minX, minY, PixelSize(width: maxX - minX + 1, height: maxY - minY + 1))
    }
}
