import WebImageCore

/// Spreads each colour channel of every frame over the whole range by histogram
/// equalization, as thumbor's `equalize()` filter does it (`equalize` in a transform spec).
///
/// Each channel's 8-bit values are counted over the frame; a value becomes
/// `(cumulative count − first cumulative count) ÷ (pixels − first cumulative count) × 255`,
/// rounded down. thumbor takes the first cumulative count of the channels at the lowest
/// value any of them has, and 0 for a channel that has none there; so does this. A
/// channel whose every pixel holds that lowest value is left as it is (thumbor divides 0
/// by 0 there). Alpha is kept.
public struct HistogramEqualizingImageTransformer: ImageTransformer {
    /// Creates a transformer that equalizes the histogram.
    public init() {}

    /// `equalize`.
    public var key: String { "equalize" }

    /// The equalized image.
    public func transform(_ image: Image) -> Image? {
        image.replacingFrames { bitmap in
            let tables = Self.tables(for: bitmap)
            return bitmap.mappingRows(premultiplied: false) { _, row in
                for x in 0..<bitmap.width {
                    let pixel = row[x]
                    row[x] = SIMD4(
                        tables[0][Bitmap.eightBit(pixel.x)], tables[1][Bitmap.eightBit(pixel.y)], tables[2][Bitmap.eightBit(pixel.z)],
                        pixel.w)
                }
            }
        }
    }

    /// For each colour channel, the value (0 to 1) each 8-bit value becomes.
    static func tables(for bitmap: Bitmap) -> [[Float]] {
        var histograms = [[Int]](repeating: [Int](repeating: 0, count: 256), count: 3)
        bitmap.forEachRow { _, row in
            for x in 0..<bitmap.width {
                histograms[0][Bitmap.eightBit(row[x].x)] += 1
                histograms[1][Bitmap.eightBit(row[x].y)] += 1
                histograms[2][Bitmap.eightBit(row[x].z)] += 1
            }
        }
        let area = bitmap.width * bitmap.height
        let cumulative = histograms.map { histogram in
            var total = 0
            return histogram.map { count in
                total += count
                return count > 0 ? total : 0
            }
        }
        // The lowest value any channel has; a channel without it starts from 0.
        let lowest = (0..<256).first { value in cumulative.contains { $0[value] != 0 } } ?? 0
        return (0..<3).map { channel in
            let first = cumulative[channel][lowest]
            guard area > first else {
                return (0..<256).map { Float($0) / 255 }
            }
            return (0..<256).map { value in
                let level = (Float(cumulative[channel][value]) - Float(first)) / Float(area - first) * 255
                return Float(Int(min(max(level, 0), 255))) / 255
            }
        }
    }
}
