extension RGBA8 {
    /// Transparent black: the background of a canvas nothing is drawn on.
    public static let clear = RGBA8(red: 0, green: 0, blue: 0, alpha: 0)
    /// Opaque black.
    public static let black = RGBA8(red: 0, green: 0, blue: 0)
    /// Opaque white.
    public static let white = RGBA8(red: 255, green: 255, blue: 255)

    /// A colour from hexadecimal digits: `RGB`, `RRGGBB` or `RRGGBBAA`, with or without a
    /// leading `#`; `nil` for anything else.
    public init?(hex text: some StringProtocol) {
        var digits = Substring(text)
        if digits.hasPrefix("#") { digits.removeFirst() }
        guard [3, 6, 8].contains(digits.count), let value = UInt32(digits, radix: 16) else { return nil }
        switch digits.count {
        case 3:
            func expand(_ shift: UInt32) -> UInt8 { UInt8((value >> shift) & 0xF) * 17 }
            self.init(red: expand(8), green: expand(4), blue: expand(0))
        case 6:
            self.init(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
        default:
            self.init(
                red: UInt8(value >> 24), green: UInt8(value >> 16 & 0xFF),
                blue: UInt8(value >> 8 & 0xFF), alpha: UInt8(value & 0xFF))
        }
    }

    /// `RRGGBBAA` in lower-case hexadecimal: how colours appear in transformer keys.
    public var hex: String {
        let value = UInt32(red) << 24 | UInt32(green) << 16 | UInt32(blue) << 8 | UInt32(alpha)
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// The colour as four floats from 0 to 1, premultiplied by alpha.
    package var premultipliedFloats: SIMD4<Float> {
        let alpha = Float(alpha) / 255
        return SIMD4(Float(red) / 255 * alpha, Float(green) / 255 * alpha, Float(blue) / 255 * alpha, alpha)
    }
}
