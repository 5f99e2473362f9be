import Foundation
import WebImageCore
import WebImagePNG

/// Compares decoded pixels with a reference rendering (a PNG from the corpus).
package enum ReferencePixels {
    /// The largest per-channel difference between `bitmap` and `reference`, with fully
    /// transparent pixels counted equal whatever their colour (unless alpha is not
    /// compared); `nil` when the sizes differ or an 8-bit copy cannot be had.
    package static func maximumDifference(_ bitmap: Bitmap, _ reference: Bitmap, comparingAlpha: Bool = true) -> Int? {
        guard bitmap.size == reference.size, let a = try? bitmap.convertedToRGBA8().pixels,
            let b = try? reference.convertedToRGBA8().pixels
        else { return nil }
        var worst = 0
        var index = 0
        while index < a.count {
            if !comparingAlpha || !(a[index + 3] == 0 && b[index + 3] == 0) {
                for channel in 0..<(comparingAlpha ? 4 : 3) {
                    worst = max(worst, abs(Int(a[index + channel]) - Int(b[index + channel])))
                }
            }
            index += 4
        }
        return worst
    }

    /// The share of pixels whose channels differ by more than a quarter of their range;
    /// `nil` when the sizes differ or an 8-bit copy cannot be had.
    package static func differingFraction(_ bitmap: Bitmap, _ reference: Bitmap) -> Double? {
        guard bitmap.size == reference.size, let a = try? bitmap.convertedToRGBA8().pixels,
            let b = try? reference.convertedToRGBA8().pixels
        else { return nil }
        let differing = stride(from: 0, to: a.count, by: 4).filter { index in
            (0..<4).contains { abs(Int(a[index + $0]) - Int(b[index + $0])) > 64 }
        }.count
        return Double(differing) / Double(max(1, a.count / 4))
    }

    /// The pixels of a reference PNG in the corpus.
    package static func load(_ relativePath: String) throws -> Bitmap {
        try PNGCoder().decode(Corpus.data(relativePath), options: ImageDecodeOptions()).bitmap
    }
}
