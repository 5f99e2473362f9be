import Foundation

/// A BlurHash: a picture reduced to a few cosine components of its colour and written as
/// a short base-83 string (`"LEHV6nWB2yk8pyo0adR*.7kCMdnj"`), which an app stores beside
/// the image's URL and draws, blurred, until the image arrives.
///
/// Create one from an image with `Image.blurHash(components:)`, or from stored text with
/// ``init(_:)``; ``image(width:height:punch:)`` draws it. Encoding and decoding follow
/// woltapp's reference implementation: colour averaged in linear light, the constant term
/// kept as 8-bit sRGB and each varying term quantised to 19 levels per channel. A hash
/// has no alpha and no aspect ratio: draw it at the image's own proportions.
public struct BlurHash: Sendable, Hashable, CustomStringConvertible {
    /// The hash as text: 6 to 166 base-83 characters.
    public let string: String

    /// The components a hash may have across or down.
    public static let componentRange = 1...9

    /// Reads a hash, checking that it is one.
    ///
    /// - Throws: `ImageError` with `ImageError.Code.badImageData` when `string` is
    ///   shorter than 6 characters, holds a character outside BlurHash's base-83 alphabet,
    ///   is not as long as its first character's component counts say, or holds a colour
    ///   no encoder writes.
    public init(_ string: String) throws(ImageError) {
        let text = Array(string.utf8)
        guard text.count >= 6 else {
            throw ImageError(.badImageData, "a BlurHash has at least 6 characters; \"\(string)\" has \(text.count)")
        }
        guard let sizeFlag = Base83.value(of: text.prefix(1)), sizeFlag < 81 else {
            throw ImageError(.badImageData, "the BlurHash \"\(string)\" does not start with a component count")
        }
        let expected = 4 + 2 * (sizeFlag % 9 + 1) * (sizeFlag / 9 + 1)
        guard text.count == expected else {
            throw ImageError(.badImageData, "the BlurHash \"\(string)\" has \(text.count) characters; its components need \(expected)")
        }
        guard let constant = Base83.value(of: text[2..<6]), Base83.value(of: text[1..<2]) != nil else {
            throw ImageError(.badImageData, "the BlurHash \"\(string)\" holds a character outside its alphabet")
        }
        guard constant <= 0xFF_FFFF else {
            throw ImageError(.badImageData, "the BlurHash \"\(string)\" holds a colour out of range")
        }
        for start in stride(from: 6, to: text.count, by: 2) {
            guard let term = Base83.value(of: text[start..<start + 2]) else {
                throw ImageError(.badImageData, "the BlurHash \"\(string)\" holds a character outside its alphabet")
            }
            guard term < 19 * 19 * 19 else {
                throw ImageError(.badImageData, "the BlurHash \"\(string)\" holds a colour out of range")
            }
        }
        self.string = string
    }

    /// Wraps text the encoder has just written, which is a hash by construction.
    init(encoded text: [UInt8]) {
        string = String(decoding: text, as: UTF8.self)
    }

    /// How many cosine components the hash has across (`x`) and down (`y`), each 1 to 9.
    public var components: (x: Int, y: Int) {
        let sizeFlag = Base83.value(of: string.utf8.prefix(1)) ?? 0
        return (sizeFlag % 9 + 1, sizeFlag / 9 + 1)
    }

    /// The picture's average colour, opaque: the hash's constant term.
    public var averageColor: RGBA8 {
        let value = Base83.value(of: Array(string.utf8)[2..<6]) ?? 0
        return RGBA8(red: UInt8(value >> 16), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
    }

    /// The hash drawn as an opaque image of `width` × `height` pixels.
    ///
    /// Draw it small (32 pixels a side is plenty) and let the view scale it up: the hash
    /// holds no more detail than its components. `punch` scales the varying terms: 1
    /// draws the hash as encoded, more gives stronger contrast.
    ///
    /// - Precondition: `width` and `height` are at least 1.
    public func image(width: Int, height: Int, punch: Double = 1) -> Image {
        precondition(width >= 1 && height >= 1, "a placeholder needs at least one pixel")
        let (countX, countY) = components
        let colours = factors(punch: Float(punch))
        let cosinesX = Self.cosines(count: countX, length: width)
        let cosinesY = Self.cosines(count: countY, length: height)
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        var offset = 0
        for y in 0..<height {
            for x in 0..<width {
                var colour = SIMD3<Float>()
                for j in 0..<countY {
                    for i in 0..<countX {
                        colour += colours[i + j * countX] * (cosinesX[i * width + x] * cosinesY[j * height + y])
                    }
                }
                pixels[offset] = Self.sRGB(fromLinear: colour.x)
                pixels[offset + 1] = Self.sRGB(fromLinear: colour.y)
                pixels[offset + 2] = Self.sRGB(fromLinear: colour.z)
                offset += 4
            }
        }
        return Image(bitmap: Bitmap(width: width, height: height, pixels: pixels), hasAlpha: false)
    }

    /// The hash.
    public var description: String { string }

    /// The components' colours in linear light, the constant term first, row by row; the
    /// varying terms multiplied by `punch`.
    private func factors(punch: Float) -> [SIMD3<Float>] {
        let text = Array(string.utf8)
        let maximum = Float((Base83.value(of: text[1..<2]) ?? 0) + 1) / 166 * punch
        let constant = Base83.value(of: text[2..<6]) ?? 0
        var factors = [
            SIMD3(
                Self.linear(fromSRGB: constant >> 16), Self.linear(fromSRGB: constant >> 8 & 0xFF),
                Self.linear(fromSRGB: constant & 0xFF))
        ]
        for start in stride(from: 6, to: text.count, by: 2) {
            let value = Base83.value(of: text[start..<start + 2]) ?? 0
            func level(_ quantised: Int) -> Float {
                let signed = Float(quantised - 9) / 9
                return (signed < 0 ? -1 : 1) * signed * signed * maximum
            }
            factors.append(SIMD3(level(value / 361), level(value / 19 % 19), level(value % 19)))
        }
        return factors
    }

    /// `cos(π · component · position / length)` for every component and position,
    /// component by component.
    static func cosines(count: Int, length: Int) -> [Float] {
        var cosines = [Float](repeating: 0, count: count * length)
        for component in 0..<count {
            for position in 0..<length {
                cosines[component * length + position] = cos(Float(Double.pi * Double(component) * Double(position) / Double(length)))
            }
        }
        return cosines
    }

    /// An sRGB level, 0–255, in linear light, rounded as the reference rounds.
    static func linear(fromSRGB level: Int) -> Float {
        let value = Float(level) / 255
        if Double(value) <= 0.04045 { return Float(Double(value) / 12.92) }
        return pow(Float((Double(value) + 0.055) / 1.055), Float(2.4))
    }

    /// A linear-light value as an sRGB level, clamped to 0–255, rounded as the reference
    /// rounds.
    static func sRGB(fromLinear value: Float) -> UInt8 {
        let clamped = value.isNaN ? 0 : max(0, min(1, value))
        if Double(clamped) <= 0.0031308 { return UInt8(Double(clamped) * 12.92 * 255 + 0.5) }
        return UInt8((1.055 * Double(pow(clamped, Float(1 / 2.4))) - 0.055) * 255 + 0.5)
    }
}
