import Foundation

extension BlurHash {
    /// Encodes an 8-bit sRGB bitmap's colour (its alpha is not part of a BlurHash) with
    /// `components` cosine terms across and down, as woltapp's C reference does, in the
    /// same single-precision arithmetic, so the text matches its output character for
    /// character.
    ///
    /// - Precondition: `bitmap` is `PixelFormat.rgba8` and not empty; both counts in
    ///   ``componentRange``.
    init(encoding bitmap: Bitmap, components: (x: Int, y: Int)) {
        precondition(
            Self.componentRange.contains(components.x) && Self.componentRange.contains(components.y),
            "a BlurHash has 1 to 9 components across and down")
        precondition(bitmap.pixelFormat == .rgba8 && bitmap.width > 0 && bitmap.height > 0, "a BlurHash needs 8-bit pixels")
        let factors = Self.factors(of: bitmap, components: components)
        var text: [UInt8] = []
        Base83.append(components.x - 1 + (components.y - 1) * 9, length: 1, to: &text)
        var maximum: Float = 1
        if factors.count > 1 {
            let largest = factors.dropFirst().reduce(Float(0)) { max($0, abs($1.x), abs($1.y), abs($1.z)) }
            let quantised = Int(max(0, min(82, floor(Float(Double(largest * 166) - 0.5)))))
            maximum = (Float(quantised) + 1) / 166
            Base83.append(quantised, length: 1, to: &text)
        } else {
            Base83.append(0, length: 1, to: &text)
        }
        let constant = factors[0]
        let average = Int(Self.sRGB(fromLinear: constant.x)) << 16 | Int(Self.sRGB(fromLinear: constant.y)) << 8 | Int(Self.sRGB(fromLinear: constant.z))
        Base83.append(average, length: 4, to: &text)
        for factor in factors.dropFirst() {
            let levels = (Self.level(factor.x, maximum: maximum), Self.level(factor.y, maximum: maximum), Self.level(factor.z, maximum: maximum))
            Base83.append(levels.0 * 19 * 19 + levels.1 * 19 + levels.2, length: 2, to: &text)
        }
        self.init(encoded: text)
    }

    /// Each component's average of the bitmap's linear-light colour weighted by its cosine
    /// (twice that for the varying terms), the constant term first, row by row.
    private static func factors(of bitmap: Bitmap, components: (x: Int, y: Int)) -> [SIMD3<Float>] {
        let width = bitmap.width, height = bitmap.height
        let linear = (0..<256).map(linear(fromSRGB:))
        let cosinesX = cosines(count: components.x, length: width)
        let cosinesY = cosines(count: components.y, length: height)
        var factors: [SIMD3<Float>] = []
        bitmap.pixels.withUnsafeBufferPointer { pixels in
            for j in 0..<components.y {
                for i in 0..<components.x {
                    var sum = SIMD3<Float>()
                    for y in 0..<height {
                        let cosineY = cosinesY[j * height + y]
                        var offset = y * width * 4
                        for x in 0..<width {
                            let basis = cosinesX[i * width + x] * cosineY
                            sum += basis * SIMD3(linear[Int(pixels[offset])], linear[Int(pixels[offset + 1])], linear[Int(pixels[offset + 2])])
                            offset += 4
                        }
                    }
                    let normalisation: Float = i == 0 && j == 0 ? 1 : 2
                    factors.append(sum * (normalisation / Float(width * height)))
                }
            }
        }
        return factors
    }

    /// A varying term's channel as one of 19 levels: the square root of its share of
    /// `maximum`, signed, spread over 0–18.
    private static func level(_ value: Float, maximum: Float) -> Int {
        let share = value / maximum
        let root = Float(signOf: share, magnitudeOf: pow(abs(share), 0.5))
        return Int(max(0, min(18, floor(Float(Double(root * 9) + 9.5)))))
    }
}
