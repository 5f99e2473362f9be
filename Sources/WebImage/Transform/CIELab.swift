import Foundation

/// A colour in CIE L*a*b* (D65 white), from 8-bit sRGB: lightness from 0 to 100 and the
/// two opponent axes, for the smart crop's skin and saturation tests.
struct CIELab {
    /// The lightness, 0 (black) to 100 (white).
    let l: Float
    /// Green (negative) to red (positive).
    let a: Float
    /// Blue (negative) to yellow (positive).
    let b: Float

    /// The colour of sRGB channels from 0 to 255.
    init(red: Float, green: Float, blue: Float) {
        let r = Self.linear(red), g = Self.linear(green), bl = Self.linear(blue)
        let x = (0.4124 * r + 0.3576 * g + 0.1805 * bl) / 0.95047
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * bl
        let z = (0.0193 * r + 0.1192 * g + 0.9505 * bl) / 1.08883
        let fx = Self.f(x), fy = Self.f(y), fz = Self.f(z)
        l = 116 * fy - 16
        a = 500 * (fx - fy)
        b = 200 * (fy - fz)
    }

    /// The sRGB transfer function undone, for a channel from 0 to 255.
    private static func linear(_ channel: Float) -> Float {
        let c = channel / 255
        return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    private static func f(_ t: Float) -> Float {
        t > 216 / 24389 ? cbrt(t) : (24389 / 27 * t + 16) / 116
    }
}
