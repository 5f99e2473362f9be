import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
import WebImageTestSupport

@Suite struct ImageEncodeOptionsTests {
    /// Left half clear, right half opaque white, written as PNG.
    let halfClearPNG: Data = try! ImageCodersManager.shared.encode(
        Image(bitmap: Bitmap.painted(64, 32) { x, _ in x < 32 ? .clear : .white }), as: .png
    )

    @Test func aJPEGFromAnAlphaPNGOverBlackIsBlackWhereThePNGWasClear() throws {
        let png = try ImageCodersManager.shared.decode(halfClearPNG)
        #expect(png.hasAlpha)
        let jpeg = try ImageCodersManager.shared.encode(png, as: .jpeg, options: ImageEncodeOptions(background: .black))
        let decoded = try ImageCodersManager.shared.decode(jpeg)
        for (x, y) in [(2, 2), (16, 16), (28, 30)] {
            let pixel = decoded.bitmap.rgba8(x: x, y: y)
            #expect(pixel.red <= 3 && pixel.green <= 3 && pixel.blue <= 3, "(\(x),\(y)) = \(pixel)")
        }
        #expect(decoded.bitmap.rgba8(x: 50, y: 16).red >= 252)
        // Without a background the JPEG coder's own choice (white) stays.
        let plain = try ImageCodersManager.shared.decode(ImageCodersManager.shared.encode(png, as: .jpeg))
        #expect(plain.bitmap.rgba8(x: 16, y: 16).red >= 252)
        // A format with alpha ignores the background.
        let webp = try ImageCodersManager.shared.decode(
            ImageCodersManager.shared.encode(png, as: .webp, options: ImageEncodeOptions(lossless: true, background: .black))
        )
        #expect(webp.bitmap.rgba8(x: 16, y: 16).alpha == 0)
    }

    /// A maximum file size of 100 KB gives the output of the largest quality under it.
    @Test func aMaximumFileSizeGivesTheLargestQualityUnderIt() throws {
        var generator = SeededGenerator(seed: 42)
        let noisy = Image(
            bitmap: Bitmap.painted(400, 300) { x, y in
                RGBA8(red: UInt8(x % 256), green: UInt8((x * y) % 256), blue: UInt8.random(in: 0...255, using: &generator))
            })
        let limit = 100_000
        let sizes = try (1...100).map { quality in
            try ImageCodersManager.shared.encode(noisy, as: .jpeg, options: ImageEncodeOptions(quality: Double(quality) / 100)).count
        }
        let best = try #require(sizes.indices.last { sizes[$0] <= limit }) + 1
        #expect(best < 100, "the image must be too big at full quality for this test to mean anything")
        let fitted = try ImageCodersManager.shared.encode(noisy, as: .jpeg, options: ImageEncodeOptions(quality: 1, maxFileSize: limit))
        #expect(fitted.count <= limit)
        #expect(fitted == (try ImageCodersManager.shared.encode(noisy, as: .jpeg, options: ImageEncodeOptions(quality: Double(best) / 100))))

        #expect(throws: ImageError.self) {
            try ImageCodersManager.shared.encode(noisy, as: .png, options: ImageEncodeOptions(maxFileSize: 1000))
        }
    }

    @Test func aMaximumPixelSizeShrinksBeforeEncoding() throws {
        let big = Image(bitmap: Bitmap.solid(200, 100, .white))
        let data = try ImageCodersManager.shared.encode(big, as: .png, options: ImageEncodeOptions(maxPixelSize: PixelSize(width: 50, height: 50)))
        #expect(try ImageCodersManager.shared.decode(data).pixelSize == PixelSize(width: 50, height: 25))
    }
}
