import Testing
import WebImageCore

/// `Bitmap.boxShrunk(by:)`: each block's average, weighted by alpha, with the blocks the
/// sides leave short averaging what they hold.
@Suite struct BitmapBoxShrinkingTests {
    /// A bitmap whose pixel at (x, y) is `pixel(x, y)`.
    static func bitmap(width: Int, height: Int, _ pixel: (Int, Int) -> RGBA8) -> Bitmap {
        var bitmap = Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let value = pixel(x, y)
                let offset = (y * width + x) * 4
                bitmap.pixels[offset..<offset + 4] = [value.red, value.green, value.blue, value.alpha]
            }
        }
        return bitmap
    }

    @Test func eachBlockIsItsPixelsAverage() throws {
        // 7 × 5 by 3: blocks of 3 × 3, 1 × 3 at the right, 3 × 2 at the bottom, 1 × 2 in the corner.
        let source = Self.bitmap(width: 7, height: 5) { x, y in
            RGBA8(red: UInt8(x * 30), green: UInt8(y * 50), blue: UInt8((x * 7 + y * 13) % 256), alpha: 255)
        }
        let shrunk = try #require(try source.boxShrunk(by: 3))
        #expect(shrunk.size == PixelSize(width: 3, height: 2))
        for outputY in 0..<2 {
            for outputX in 0..<3 {
                let xs = (outputX * 3)..<min(outputX * 3 + 3, 7)
                let ys = (outputY * 3)..<min(outputY * 3 + 3, 5)
                let count = xs.count * ys.count
                var sums = [0, 0, 0]
                for y in ys {
                    for x in xs {
                        let pixel = source.rgba8(x: x, y: y)
                        sums[0] += Int(pixel.red)
                        sums[1] += Int(pixel.green)
                        sums[2] += Int(pixel.blue)
                    }
                }
                let expected = sums.map { UInt8(($0 * 255 + count * 255 / 2) / (count * 255)) }
                let pixel = shrunk.rgba8(x: outputX, y: outputY)
                #expect([pixel.red, pixel.green, pixel.blue] == expected, "block (\(outputX), \(outputY))")
                #expect(pixel.alpha == 255)
            }
        }
    }

    @Test func anOpaqueBitmapShrinksAlikeEitherWay() throws {
        let source = Self.bitmap(width: 61, height: 47) { x, y in
            RGBA8(red: UInt8((x * 37 + y * 11) % 256), green: UInt8((x * y) % 256), blue: UInt8((x ^ y) % 256), alpha: 255)
        }
        for factor in [2, 3, 5, 16, 61] {
            let weighted = try #require(try source.boxShrunk(by: factor))
            #expect(try source.boxShrunk(by: factor, isOpaque: true) == weighted, "by \(factor)")
        }
    }

    @Test func aTransparentPixelLendsNoColour() throws {
        // Red opaque, and a transparent pixel whose colour is white: the block is red at half alpha.
        var source = Bitmap(width: 2, height: 1)
        source.pixels = [255, 0, 0, 255, 255, 255, 255, 0]
        let shrunk = try #require(try source.boxShrunk(by: 2))
        #expect(shrunk.rgba8(x: 0, y: 0) == RGBA8(red: 255, green: 0, blue: 0, alpha: 128))
        var clear = Bitmap(width: 2, height: 2)
        clear.pixels = [UInt8](repeating: 0, count: 16)
        #expect(try clear.boxShrunk(by: 2)?.rgba8(x: 0, y: 0) == RGBA8(red: 0, green: 0, blue: 0, alpha: 0))
    }

    @Test func theLargestFactorKeepsItsSumsExact() throws {
        let white = Self.bitmap(width: 64, height: 64) { _, _ in RGBA8(red: 255, green: 255, blue: 255, alpha: 255) }
        #expect(try white.boxShrunk(by: 64)?.rgba8(x: 0, y: 0) == RGBA8(red: 255, green: 255, blue: 255, alpha: 255))
    }

    @Test func nothingIsShrunkOutsideItsFactorsAndLayout() throws {
        let bitmap = Bitmap(width: 8, height: 8)
        #expect(try bitmap.boxShrunk(by: 1) == nil)
        #expect(try bitmap.boxShrunk(by: 65) == nil)
        #expect(try Bitmap(width: 8, height: 8, pixelFormat: .rgba16).boxShrunk(by: 2) == nil)
    }
}
