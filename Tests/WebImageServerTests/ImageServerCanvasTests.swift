import Foundation
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// `pad`, `extend`, `pixelate` and `trim` through the running server: sizes, pixels,
/// bounds, and the canvas growth counted by the budget.
@Suite("ImageServer canvas operations", .serialized, .timeLimit(.minutes(15)))
struct ImageServerCanvasTests {
    static func png(_ bitmap: Bitmap) throws -> Data {
        try ImageCodersManager.shared.encode(Image(bitmap: bitmap), as: .png)
    }

    /// A `width` × `height` picture whose pixel (x, y) is (4x, 5y, 128).
    static func gradient(width: Int = 64, height: Int = 48) -> Bitmap {
        var pixels = [UInt8]()
        for y in 0..<height {
            for x in 0..<width { pixels += [UInt8((x * 4) % 256), UInt8((y * 5) % 256), 128, 255] }
        }
        return Bitmap(width: width, height: height, pixels: pixels)
    }

    @Test func padGrowsTheCanvas() async throws {
        try await ImageServerHarness.run(configure: { $0.maxResultPixels = 5_000 }) { harness in
            harness.serve("/g.png", try Self.png(Self.gradient()))
            let even = try await harness.get(harness.path("pad=5|format=png", source: "/g.png"))
            #expect(even.status == 200)
            let evenBitmap = try even.image().bitmap
            #expect(evenBitmap.size == PixelSize(width: 74, height: 58))
            #expect(evenBitmap.rgba8(x: 0, y: 0).alpha == 0)
            #expect(evenBitmap.rgba8(x: 5, y: 5) == RGBA8(red: 0, green: 0, blue: 128))
            let sides = try await harness.get(harness.path("pad=1,2,3,4,bg=ff0000|format=png", source: "/g.png")).image().bitmap
            #expect(sides.size == PixelSize(width: 70, height: 52))
            #expect(sides.rgba8(x: 3, y: 0) == RGBA8(red: 255, green: 0, blue: 0))
            #expect(sides.rgba8(x: 69, y: 51) == RGBA8(red: 255, green: 0, blue: 0))
            #expect(sides.rgba8(x: 4, y: 1) == RGBA8(red: 0, green: 0, blue: 128))
            // 104×88 is over the 5,000-pixel limit: refused before the work.
            #expect(try await harness.get(harness.path("pad=20", source: "/g.png")).status == 413)
            for bad in ["pad=1,2", "pad=-1", "pad=99999", "pad=1,bg=nocolour", "pad"] {
                #expect(try await harness.get(harness.path(bad, source: "/g.png")).status == 400, "\(bad)")
            }
        }
    }

    @Test func extendCentresThePictureOnTheCanvas() async throws {
        try await ImageServerHarness.run { harness in
            harness.serve("/g.png", try Self.png(Self.gradient()))
            let answer = try await harness.get(harness.path("resize=50|extend=100x100,bg=00ff00|format=png", source: "/g.png"))
            #expect(answer.status == 200)
            let bitmap = try answer.image().bitmap
            #expect(bitmap.size == PixelSize(width: 100, height: 100))
            #expect(bitmap.rgba8(x: 0, y: 0) == RGBA8(red: 0, green: 255, blue: 0))
            #expect(bitmap.rgba8(x: 50, y: 20) == RGBA8(red: 0, green: 255, blue: 0))
            #expect(bitmap.rgba8(x: 50, y: 50).blue > 100, "the picture is in the middle")
            let top = try await harness.get(harness.path("extend=64x100,top,bg=00ff00|format=png", source: "/g.png")).image().bitmap
            #expect(top.rgba8(x: 10, y: 99) == RGBA8(red: 0, green: 255, blue: 0) && top.rgba8(x: 10, y: 2).blue == 128)
            // A picture larger than the canvas is not cropped.
            let larger = try await harness.get(harness.path("extend=10x10|format=png", source: "/g.png"))
            #expect(try larger.image().pixelSize == PixelSize(width: 64, height: 48))
            #expect(try await harness.get(harness.path("extend=16384x16384", source: "/g.png")).status == 413)
        }
    }

    @Test func pixelateMakesUniformBlocks() async throws {
        try await ImageServerHarness.run { harness in
            harness.serve("/g.png", try Self.png(Self.gradient()))
            let answer = try await harness.get(harness.path("pixelate=8|format=png", source: "/g.png"))
            #expect(answer.status == 200)
            let bitmap = try answer.image().bitmap
            #expect(bitmap.size == PixelSize(width: 64, height: 48))
            var colours = Set<RGBA8>()
            for blockY in 0..<6 {
                for blockX in 0..<8 {
                    let colour = bitmap.rgba8(x: blockX * 8, y: blockY * 8)
                    colours.insert(colour)
                    for y in blockY * 8..<blockY * 8 + 8 {
                        for x in blockX * 8..<blockX * 8 + 8 where bitmap.rgba8(x: x, y: y) != colour {
                            Issue.record("block \(blockX),\(blockY) is not uniform at \(x),\(y)")
                        }
                    }
                }
            }
            #expect(colours.count > 20, "the blocks keep the gradient")
            let whole = try await harness.get(harness.path("pixelate=5000|format=png", source: "/g.png")).image().bitmap
            #expect(whole.rgba8(x: 0, y: 0) == whole.rgba8(x: 63, y: 47))
            for bad in ["pixelate=0", "pixelate=20000", "pixelate", "pixelate=2.5"] {
                #expect(try await harness.get(harness.path(bad, source: "/g.png")).status == 400, "\(bad)")
            }
        }
    }

    @Test func trimRemovesUniformBorders() async throws {
        // White with a little noise (within 6), and a 30×20 red rectangle at (10, 50).
        var pixels = [UInt8]()
        for y in 0..<80 {
            for x in 0..<100 {
                let inside = (10..<40).contains(x) && (50..<70).contains(y)
                let noise = UInt8((x * 7 + y * 3) % 7)
                pixels += inside ? [200, 0, 0, 255] : [255 - noise, 255 - noise, 255, 255]
            }
        }
        try await ImageServerHarness.run { harness in
            harness.serve("/t.png", try Self.png(Bitmap(width: 100, height: 80, pixels: pixels)))
            let trimmed = try await harness.get(harness.path("trim|format=png", source: "/t.png"))
            #expect(trimmed.status == 200)
            let bitmap = try trimmed.image().bitmap
            #expect(bitmap.size == PixelSize(width: 30, height: 20))
            #expect(bitmap.rgba8(x: 0, y: 0) == RGBA8(red: 200, green: 0, blue: 0))
            // A threshold below the noise keeps the noisy border.
            let strict = try await harness.get(harness.path("trim=2|format=png", source: "/t.png"))
            #expect(try strict.image().pixelSize != PixelSize(width: 30, height: 20))
            // What follows a trim is planned from the size it left.
            let then = try await harness.get(harness.path("trim|resize=x10|format=png", source: "/t.png"))
            #expect(try then.image().pixelSize == PixelSize(width: 15, height: 10))
            for bad in ["trim=256", "trim=-1", "trim=x"] {
                #expect(try await harness.get(harness.path(bad, source: "/t.png")).status == 400, "\(bad)")
            }
        }
    }
}
