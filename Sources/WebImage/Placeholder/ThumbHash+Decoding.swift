import Foundation

extension ThumbHash {
    /// The side of the picture ``image()`` draws along its longer side.
    public static let placeholderSide = 32

    /// The picture's average colour, alpha included: the hash's constant terms.
    public var averageColor: RGBA8 {
        let (red, green, blue) = Self.rgb(
            lightness: Double(header24 & 63) / 63, yellowBlue: Double(header24 >> 6 & 63) / 31.5 - 1,
            redGreen: Double(header24 >> 12 & 63) / 31.5 - 1)
        let alpha = hasAlpha ? Double(bytes[5] & 15) / 15 : 1
        func level(_ value: Double) -> UInt8 { UInt8((255 * min(1, max(0, value))).rounded()) }
        return RGBA8(red: level(red), green: level(green), blue: level(blue), alpha: level(alpha))
    }

    /// The hash drawn as a small image: ``placeholderSide`` pixels along the longer side
    /// and the ``aspectRatio`` across the other, as the reference's `thumbHashToRGBA`
    /// draws it. Let the view scale it up to the image's frame.
    public func image() -> Image {
        let header24 = header24, header16 = header16
        let lightnessConstant = Double(header24 & 63) / 63
        let yellowBlueConstant = Double(header24 >> 6 & 63) / 31.5 - 1
        let redGreenConstant = Double(header24 >> 12 & 63) / 31.5 - 1
        let lightnessScale = Double(header24 >> 18 & 31) / 31
        let yellowBlueScale = Double(header16 >> 3 & 63) / 63
        let redGreenScale = Double(header16 >> 9 & 63) / 63
        let alphaConstant = hasAlpha ? Double(bytes[5] & 15) / 15 : 1
        let alphaScale = hasAlpha ? Double(bytes[5] >> 4) / 15 : 1
        let lightness = lightness

        // The varying terms, four bits each, low nibble first; colour is boosted by 1.25
        // to make up for the quantisation.
        var nibble = 2 * headerLength
        func terms(_ size: (across: Int, down: Int), scale: Double) -> [Double] {
            (0..<Self.termCount(size)).map { _ in
                let bits = bytes[nibble / 2] >> (nibble % 2 * 4) & 15
                nibble += 1
                return (Double(bits) / 7.5 - 1) * scale
            }
        }
        let lightnessTerms = terms(lightness, scale: lightnessScale)
        let yellowBlueTerms = terms((3, 3), scale: yellowBlueScale * 1.25)
        let redGreenTerms = terms((3, 3), scale: redGreenScale * 1.25)
        let alphaTerms = hasAlpha ? terms((5, 5), scale: alphaScale) : []

        let ratio = aspectRatio, side = Double(Self.placeholderSide)
        let width = Self.roundedHalfUp(ratio > 1 ? side : side * ratio)
        let height = Self.roundedHalfUp(ratio > 1 ? side / ratio : side)
        let columns = max(lightness.across, hasAlpha ? 5 : 3), rows = max(lightness.down, hasAlpha ? 5 : 3)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        var cosinesX = [Double](repeating: 0, count: columns), cosinesY = [Double](repeating: 0, count: rows)
        var offset = 0
        for y in 0..<height {
            for x in 0..<width {
                for cx in 0..<columns { cosinesX[cx] = cos(Double.pi / Double(width) * (Double(x) + 0.5) * Double(cx)) }
                for cy in 0..<rows { cosinesY[cy] = cos(Double.pi / Double(height) * (Double(y) + 0.5) * Double(cy)) }
                let light = Self.sum(lightnessTerms, size: lightness, constant: lightnessConstant, cosinesX, cosinesY)
                let yellowBlue = Self.sum(yellowBlueTerms, size: (3, 3), constant: yellowBlueConstant, cosinesX, cosinesY)
                let redGreen = Self.sum(redGreenTerms, size: (3, 3), constant: redGreenConstant, cosinesX, cosinesY)
                let alpha = hasAlpha ? Self.sum(alphaTerms, size: (5, 5), constant: alphaConstant, cosinesX, cosinesY) : alphaConstant
                let (red, green, blue) = Self.rgb(lightness: light, yellowBlue: yellowBlue, redGreen: redGreen)
                for (index, value) in [red, green, blue, alpha].enumerated() {
                    pixels[offset + index] = UInt8(max(0, 255 * min(1, value)))
                }
                offset += 4
            }
        }
        return Image(bitmap: Bitmap(width: width, height: height, pixels: pixels), hasAlpha: hasAlpha)
    }

    /// A channel's value at one pixel: its constant plus each varying term times its two
    /// cosines, doubled.
    private static func sum(
        _ terms: [Double], size: (across: Int, down: Int), constant: Double, _ cosinesX: [Double], _ cosinesY: [Double]
    ) -> Double {
        var value = constant, index = 0
        for cy in 0..<size.down {
            var cx = cy > 0 ? 0 : 1
            let cosineY = cosinesY[cy] * 2
            while cx * size.down < size.across * (size.down - cy) {
                value += terms[index] * cosinesX[cx] * cosineY
                index += 1
                cx += 1
            }
        }
        return value
    }

    /// Red, green and blue from lightness and the yellow–blue and red–green differences.
    static func rgb(lightness: Double, yellowBlue: Double, redGreen: Double) -> (Double, Double, Double) {
        let blue = lightness - 2 / 3 * yellowBlue
        let red = (3 * lightness - blue + redGreen) / 2
        return (red, red - redGreen, blue)
    }
}
