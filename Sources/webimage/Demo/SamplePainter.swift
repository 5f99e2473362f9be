import Foundation
import WebImage

/// Paints the procedural pictures behind the sample images: landscapes for the lossy
/// formats, translucent badges for the formats with alpha, a bouncing ball for the
/// animated ones. Deterministic: the same arguments always give the same pixels.
enum SamplePainter {
    /// A sky, a sun and rolling hills, tinted by `hue` (0–1).
    static func landscape(_ size: PixelSize, hue: Double) -> Bitmap {
        var bitmap = Bitmap(width: size.width, height: size.height)
        let sun = (x: Double(size.width) * (0.2 + 0.6 * hue), y: Double(size.height) * 0.3)
        let sunRadius = Double(min(size.width, size.height)) * 0.12
        bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<size.height {
                let v = Double(y) / Double(max(1, size.height - 1))
                for x in 0..<size.width {
                    let u = Double(x) / Double(max(1, size.width - 1))
                    let hill = 0.62 + 0.08 * sin(u * 9 + hue * 6) + 0.05 * sin(u * 23 + 1)
                    var colour: (Double, Double, Double)
                    if v > hill {
                        let shade = 0.55 + 0.45 * sin(u * 40 + v * 30)
                        colour = (0.15 * shade, 0.35 + 0.3 * shade * (1 - v), 0.12)
                    } else {
                        let distance = hypot(Double(x) - sun.x, Double(y) - sun.y)
                        let glow = max(0, 1 - distance / (sunRadius * 2.5))
                        colour = (0.35 + 0.4 * v + 0.6 * glow, 0.55 + 0.3 * v + 0.4 * glow, 0.95 - 0.3 * v)
                        if distance < sunRadius { colour = (1, 0.92, 0.6) }
                    }
                    let tinted = tint(colour, hue: hue)
                    let offset = (y * size.width + x) * 4
                    pixels[offset] = channel(tinted.0)
                    pixels[offset + 1] = channel(tinted.1)
                    pixels[offset + 2] = channel(tinted.2)
                    pixels[offset + 3] = 255
                }
            }
        }
        return bitmap
    }

    /// A soft-edged disc with a ring, on a transparent background.
    static func badge(_ size: PixelSize, hue: Double) -> Bitmap {
        var bitmap = Bitmap(width: size.width, height: size.height)
        let centre = (x: Double(size.width) / 2, y: Double(size.height) / 2)
        let radius = Double(min(size.width, size.height)) * 0.45
        bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<size.height {
                for x in 0..<size.width {
                    let distance = hypot(Double(x) + 0.5 - centre.x, Double(y) + 0.5 - centre.y)
                    let coverage = min(1, max(0, radius - distance))
                    let ring = abs(distance - radius * 0.7) < radius * 0.08
                    let colour = tint(ring ? (1, 1, 1) : (0.9, 0.3, 0.2), hue: hue)
                    let offset = (y * size.width + x) * 4
                    pixels[offset] = channel(colour.0)
                    pixels[offset + 1] = channel(colour.1)
                    pixels[offset + 2] = channel(colour.2)
                    pixels[offset + 3] = channel(coverage * (ring ? 1 : 0.85))
                }
            }
        }
        return bitmap
    }

    /// A 16-bit diagonal gradient, smooth enough to show banding if it were cut to 8 bits.
    static func deepGradient(_ size: PixelSize) -> Bitmap {
        var bitmap = Bitmap(width: size.width, height: size.height, pixelFormat: .rgba16)
        bitmap.pixels.withUnsafeMutableBytes { raw in
            let channels = raw.bindMemory(to: UInt16.self)
            for y in 0..<size.height {
                for x in 0..<size.width {
                    let offset = (y * size.width + x) * 4
                    channels[offset] = UInt16(65535 * x / max(1, size.width - 1))
                    channels[offset + 1] = UInt16(65535 * y / max(1, size.height - 1))
                    channels[offset + 2] = UInt16(65535 * (x + y) / max(1, size.width + size.height - 2))
                    channels[offset + 3] = 65535
                }
            }
        }
        return bitmap
    }

    /// Frames of a ball bouncing across a flat background, in few colours (GIF-friendly).
    static func bouncingBall(_ size: PixelSize, frames: Int, hue: Double) -> [Bitmap] {
        let background = tint((0.2, 0.25, 0.35), hue: hue)
        let ball = tint((1, 0.8, 0.1), hue: hue)
        let radius = Double(min(size.width, size.height)) * 0.15
        return (0..<frames).map { frame in
            let t = Double(frame) / Double(frames)
            let centre = (
                x: radius + (Double(size.width) - 2 * radius) * t,
                y: Double(size.height) - radius - abs(sin(t * .pi * 2)) * (Double(size.height) - 2 * radius)
            )
            var bitmap = Bitmap(width: size.width, height: size.height)
            bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
                for y in 0..<size.height {
                    for x in 0..<size.width {
                        let inside = hypot(Double(x) - centre.x, Double(y) - centre.y) <= radius
                        let colour = inside ? ball : background
                        let offset = (y * size.width + x) * 4
                        pixels[offset] = channel(colour.0)
                        pixels[offset + 1] = channel(colour.1)
                        pixels[offset + 2] = channel(colour.2)
                        pixels[offset + 3] = 255
                    }
                }
            }
            return bitmap
        }
    }

    /// Rotates the colour around the grey axis by `hue` of a turn.
    private static func tint(_ colour: (Double, Double, Double), hue: Double) -> (Double, Double, Double) {
        let angle = hue * 2 * .pi
        let cosine = cos(angle), sine = sin(angle)
        let third = 1.0 / 3, root = sqrt(third)
        let a = cosine + (1 - cosine) * third
        let b = third * (1 - cosine) - root * sine
        let c = third * (1 - cosine) + root * sine
        return (
            colour.0 * a + colour.1 * b + colour.2 * c,
            colour.0 * c + colour.1 * a + colour.2 * b,
            colour.0 * b + colour.1 * c + colour.2 * a
        )
    }

    private static func channel(_ value: Double) -> UInt8 {
        UInt8(max(0, min(255, (value * 255).rounded())))
    }
}
