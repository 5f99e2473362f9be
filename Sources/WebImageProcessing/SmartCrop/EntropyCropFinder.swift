import Foundation
import WebImageCore

/// Finds a crop window by information, after libvips' `entropy` smart crop: while the
/// picture is wider (taller) than the window, a strip is cut from the left or the right
/// (the top or the bottom), whichever has the lower entropy of its luminance histogram;
/// strips are an eighth of what is left, never more than the excess.
struct EntropyCropFinder {
    /// The picture analysed.
    let bitmap: Bitmap

    /// The largest side of the copy the entropy is computed on.
    static let analysisSide = 256

    /// The top-left corner of the window of `size` (no larger than the picture), in the
    /// picture's pixels; the caller moves it inside the picture.
    func origin(of size: PixelSize) throws(ImageError) -> (x: Int, y: Int) {
        let scale = min(1, Double(Self.analysisSide) / Double(max(bitmap.width, bitmap.height)))
        let small =
            scale < 1
            ? try bitmap.resized(to: PixelSize(width: max(1, Int((Double(bitmap.width) * scale).rounded())), height: max(1, Int((Double(bitmap.height) * scale).rounded()))))
            : bitmap
        let luma = try Self.luma(small)
        let factorX = Double(small.width) / Double(bitmap.width), factorY = Double(small.height) / Double(bitmap.height)
        let targetWidth = max(1, Int((Double(size.width) * factorX).rounded())), targetHeight = max(1, Int((Double(size.height) * factorY).rounded()))
        var left = 0, top = 0, width = small.width, height = small.height
        func entropy(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> Double {
            var histogram = [Int](repeating: 0, count: 256)
            for row in y..<y + h {
                for column in x..<x + w { histogram[Int(luma[row * small.width + column])] += 1 }
            }
            let total = Double(w * h)
            return histogram.reduce(0.0) { sum, count in
                guard count > 0 else { return sum }
                let p = Double(count) / total
                return sum - p * log2(p)
            }
        }
        while width > targetWidth {
            let slice = min(width - targetWidth, max(width / 8, 1))
            if entropy(left, top, slice, height) < entropy(left + width - slice, top, slice, height) { left += slice }
            width -= slice
        }
        while height > targetHeight {
            let slice = min(height - targetHeight, max(height / 8, 1))
            if entropy(left, top, width, slice) < entropy(left, top + height - slice, width, slice) { top += slice }
            height -= slice
        }
        return (Int((Double(left) / factorX).rounded()), Int((Double(top) / factorY).rounded()))
    }

    /// The 8-bit Rec. 709 luma of every pixel.
    static func luma(_ bitmap: Bitmap) throws(ImageError) -> [UInt8] {
        let rgba = try bitmap.convertedToRGBA8()
        return rgba.pixels.withUnsafeBytes { bytes in
            (0..<bitmap.width * bitmap.height).map { index in
                let value = 0.2126 * Float(bytes[index * 4]) + 0.7152 * Float(bytes[index * 4 + 1]) + 0.0722 * Float(bytes[index * 4 + 2])
                return UInt8(min(255, max(0, value.rounded())))
            }
        }
    }
}
