import CJPEG
import WebImageCore

/// One of the fractions by which TurboJPEG can scale a JPEG while decoding it (it skips
/// DCT coefficients instead of decoding at full size and shrinking afterwards).
package struct JPEGScale: Sendable, Hashable {
    /// The numerator of the fraction.
    var numerator: Int
    /// The denominator of the fraction.
    var denominator: Int

    /// No scaling.
    package static let one = JPEGScale(numerator: 1, denominator: 1)

    /// The fractions TurboJPEG offers that shrink (or keep) the image, largest first.
    static let reductions: [JPEGScale] = {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count), count > 0 else { return [.one] }
        return UnsafeBufferPointer(start: factors, count: Int(count))
            .map { JPEGScale(numerator: Int($0.num), denominator: Int($0.denom)) }
            .filter { $0.numerator > 0 && $0.numerator <= $0.denominator }
            .sorted { $0.numerator * $1.denominator > $1.numerator * $0.denominator }
    }()

    /// The smallest reduction that turns `source` into a size at least `target` in both
    /// dimensions (no scaling when `target` is not smaller).
    static func smallest(covering target: PixelSize, from source: PixelSize) -> JPEGScale {
        reductions.last { scale in
            let size = scale.scaled(source)
            return size.width >= target.width && size.height >= target.height
        } ?? .one
    }

    /// `dimension` scaled by this fraction, rounded up as TurboJPEG's `TJSCALED` does.
    func scaled(_ dimension: Int) -> Int {
        (dimension * numerator + denominator - 1) / denominator
    }

    /// `size` scaled by this fraction, rounded up in each dimension.
    func scaled(_ size: PixelSize) -> PixelSize {
        PixelSize(width: scaled(size.width), height: scaled(size.height))
    }
}
