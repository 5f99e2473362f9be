import Foundation
import WebImageCore

/// A colour in CIE XYZ (D65 white, luminance from 0 to 100, as libvips scales it), from
/// 8-bit sRGB, with the a* axis of CIE L*a*b*: what the attention smart crop scores.
struct CIEXYZ {
    /// The reference white the a* axis is measured against (D65, luminance 100).
    static let white = SIMD3<Float>(95.047, 100, 108.883)

    /// X, Y (the luminance, 0 to 100) and Z.
    let components: SIMD3<Float>

    /// The luminance, 0 (black) to 100 (white).
    var luminance: Float { components.y }

    /// The colour of sRGB channels from 0 to 255.
    init(red: UInt8, green: UInt8, blue: UInt8) {
        let r = Self.linear(red), g = Self.linear(green), b = Self.linear(blue)
        components =
            100
            * SIMD3(
                0.4124 * r + 0.3576 * g + 0.1805 * b,
                0.2126 * r + 0.7152 * g + 0.0722 * b,
                0.0193 * r + 0.1192 * g + 0.9505 * b)
    }

    /// CIE L*a*b*'s a*: how far the colour leans to red (positive) or to green (negative).
    var redGreenAxis: Float {
        500 * (Self.labCurve(components.x / Self.white.x) - Self.labCurve(components.y / Self.white.y))
    }

    /// The sRGB transfer function undone, for a channel from 0 to 255.
    private static func linear(_ channel: UInt8) -> Float {
        let c = Float(channel) / 255
        return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    /// The cube root CIE L*a*b* applies to a component relative to the white, straightened
    /// near black.
    private static func labCurve(_ t: Float) -> Float {
        t > 216 / 24389 ? cbrt(t) : (24389 / 27 * t + 16) / 116
    }
}
