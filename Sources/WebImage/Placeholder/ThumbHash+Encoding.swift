import Foundation

extension ThumbHash {
    /// Encodes an 8-bit sRGB bitmap of at most ``maximumSide`` pixels a side, as the
    /// reference's `rgbaToThumbHash` does: colour composited over its own average, turned
    /// into lightness, yellow–blue, red–green and alpha, each channel's cosine terms
    /// quantised to four bits.
    ///
    /// - Precondition: `bitmap` is `PixelFormat.rgba8` with 1 to ``maximumSide``
    ///   pixels a side.
    init(encoding bitmap: Bitmap) {
        let width = bitmap.width, height = bitmap.height, count = width * height
        precondition(bitmap.pixelFormat == .rgba8, "a ThumbHash needs 8-bit pixels")
        precondition((1...Self.maximumSide).contains(width) && (1...Self.maximumSide).contains(height), "a ThumbHash reads at most 100x100 pixels")
        let pixels = bitmap.pixels

        var averageRed = 0.0, averageGreen = 0.0, averageBlue = 0.0, totalAlpha = 0.0
        for offset in stride(from: 0, to: count * 4, by: 4) {
            let alpha = Double(pixels[offset + 3]) / 255
            averageRed += alpha / 255 * Double(pixels[offset])
            averageGreen += alpha / 255 * Double(pixels[offset + 1])
            averageBlue += alpha / 255 * Double(pixels[offset + 2])
            totalAlpha += alpha
        }
        if totalAlpha > 0 {
            averageRed /= totalAlpha
            averageGreen /= totalAlpha
            averageBlue /= totalAlpha
        }
        let hasAlpha = totalAlpha < Double(count)
        let longSide = hasAlpha ? 5 : 7
        let across = max(1, Self.roundedHalfUp(Double(longSide * width) / Double(max(width, height))))
        let down = max(1, Self.roundedHalfUp(Double(longSide * height) / Double(max(width, height))))

        // Over the average colour, as lightness, yellow–blue, red–green and alpha.
        var lightness = [Double](), yellowBlue = [Double](), redGreen = [Double](), alphas = [Double]()
        for offset in stride(from: 0, to: count * 4, by: 4) {
            let alpha = Double(pixels[offset + 3]) / 255
            let red = averageRed * (1 - alpha) + alpha / 255 * Double(pixels[offset])
            let green = averageGreen * (1 - alpha) + alpha / 255 * Double(pixels[offset + 1])
            let blue = averageBlue * (1 - alpha) + alpha / 255 * Double(pixels[offset + 2])
            lightness.append((red + green + blue) / 3)
            yellowBlue.append((red + green) / 2 - blue)
            redGreen.append(red - green)
            alphas.append(alpha)
        }

        let light = Self.transform(lightness, width: width, height: height, size: (max(across, 3), max(down, 3)))
        let yellow = Self.transform(yellowBlue, width: width, height: height, size: (3, 3))
        let red = Self.transform(redGreen, width: width, height: height, size: (3, 3))
        let alpha = hasAlpha ? Self.transform(alphas, width: width, height: height, size: (5, 5)) : (constant: 1, terms: [], scale: 1)

        let isLandscape = width > height
        let header24 =
            Self.roundedHalfUp(63 * light.constant) | Self.roundedHalfUp(31.5 + 31.5 * yellow.constant) << 6
            | Self.roundedHalfUp(31.5 + 31.5 * red.constant) << 12 | Self.roundedHalfUp(31 * light.scale) << 18
            | (hasAlpha ? 1 << 23 : 0)
        let header16 =
            (isLandscape ? down : across) | Self.roundedHalfUp(63 * yellow.scale) << 3 | Self.roundedHalfUp(63 * red.scale) << 9
            | (isLandscape ? 1 << 15 : 0)
        var bytes = [header24 & 255, header24 >> 8 & 255, header24 >> 16 & 255, header16 & 255, header16 >> 8 & 255].map { UInt8($0) }
        if hasAlpha {
            bytes.append(UInt8(Self.roundedHalfUp(15 * alpha.constant) | Self.roundedHalfUp(15 * alpha.scale) << 4))
        }
        var isOdd = false
        for term in light.terms + yellow.terms + red.terms + alpha.terms {
            let nibble = UInt8(Self.roundedHalfUp(15 * term))
            if isOdd {
                bytes[bytes.count - 1] |= nibble << 4
            } else {
                bytes.append(nibble)
            }
            isOdd.toggle()
        }
        self.init(encoded: bytes)
    }

    /// A channel's discrete cosine transform over the triangle of terms ``termCount(_:)``
    /// counts: its constant term, its varying terms mapped from ±`scale` to 0–1, and
    /// `scale`, the largest varying term's magnitude.
    private static func transform(
        _ channel: [Double], width: Int, height: Int, size: (across: Int, down: Int)
    ) -> (constant: Double, terms: [Double], scale: Double) {
        var constant = 0.0, terms: [Double] = [], scale = 0.0
        var cosinesX = [Double](repeating: 0, count: width)
        for cy in 0..<size.down {
            var cx = 0
            while cx * size.down < size.across * (size.down - cy) {
                for x in 0..<width { cosinesX[x] = cos(Double.pi / Double(width) * Double(cx) * (Double(x) + 0.5)) }
                var sum = 0.0
                for y in 0..<height {
                    let cosineY = cos(Double.pi / Double(height) * Double(cy) * (Double(y) + 0.5))
                    for x in 0..<width { sum += channel[x + y * width] * cosinesX[x] * cosineY }
                }
                sum /= Double(width * height)
                if cx > 0 || cy > 0 {
                    terms.append(sum)
                    scale = max(scale, abs(sum))
                } else {
                    constant = sum
                }
                cx += 1
            }
        }
        if scale > 0 {
            terms = terms.map { 0.5 + 0.5 / scale * $0 }
        }
        return (constant, terms, scale)
    }
}
