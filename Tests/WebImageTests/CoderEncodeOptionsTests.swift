import Foundation
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// A coder called directly applies the encode options itself, as SDWebImage's coders do
/// (`SDImageCoderEncodeMaxPixelSize`, `SDImageCoderEncodeBackgroundColor`).
@Suite struct CoderEncodeOptionsTests {
    /// Every built-in coder that writes, called directly.
    static let writers: [(any ImageCoder, ImageFormat)] =
        ImageCodersManager.shared.supportedFormats.filter(\.encodes).compactMap { support in
            ImageCodersManager.builtInCoders.last { $0.canEncode(to: support.format) }.map { ($0, support.format) }
        }

    @Test func everyWritingCoderShrinksToTheMaximumPixelSize() throws {
        #expect(Self.writers.count >= 5, "the test must reach the coders that write")
        let big = Image(bitmap: Bitmap.solid(200, 100, .white))
        let options = ImageEncodeOptions(maxPixelSize: PixelSize(width: 50, height: 50))
        for (coder, format) in Self.writers {
            let data = try coder.encode(big, as: format, options: options)
            let decoded = try ImageCodersManager.shared.decode(data)
            #expect(decoded.pixelSize == PixelSize(width: 50, height: 25), "\(format.rawValue)")
        }
    }

    @Test func theJPEGAndBMPCodersDrawOverTheBackground() throws {
        let halfClear = Image(bitmap: Bitmap.painted(64, 32) { x, _ in x < 32 ? .clear : .white })
        #expect(halfClear.hasAlpha)
        let options = ImageEncodeOptions(background: .black)
        for (coder, format) in Self.writers where [.jpeg, .bmp].contains(format) {
            let decoded = try ImageCodersManager.shared.decode(coder.encode(halfClear, as: format, options: options))
            let pixel = decoded.bitmap.rgba8(x: 16, y: 16)
            #expect(pixel.red <= 3 && pixel.green <= 3 && pixel.blue <= 3 && pixel.alpha == 255, "\(format.rawValue): \(pixel)")
            #expect(decoded.bitmap.rgba8(x: 50, y: 16).red >= 252, "\(format.rawValue)")
        }
    }

    /// Through the manager with a file-size limit the image is still prepared once: a
    /// translucent background is not laid twice.
    @Test func aFileSizeLimitLaysATranslucentBackgroundOnce() throws {
        let clear = Image(bitmap: Bitmap.solid(16, 16, .clear))
        let grey = RGBA8(red: 128, green: 128, blue: 128, alpha: 128)
        let once = try ImageCodersManager.shared.encode(clear, as: .bmp, options: ImageEncodeOptions(background: grey))
        let limited = try ImageCodersManager.shared.encode(
            clear, as: .bmp, options: ImageEncodeOptions(background: grey, maxFileSize: 1 << 20))
        #expect(limited == once)
    }
}
