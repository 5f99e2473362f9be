import Testing
@testable import WebImageCore
import WebImageCoders
import WebImageTestSupport

@Suite struct ImageTests {
    @Test func memoryCostCountsEveryFrame() {
        let frame = ImageFrame(bitmap: Bitmap(width: 600, height: 600), duration: 1.0 / 3)
        let image = Image(frames: Array(repeating: frame, count: 16), loopCount: 0, format: .webp)
        #expect(image.memoryCost == 16 * 600 * 600 * 4)
        #expect(image.isAnimated)
        #expect(abs(image.duration - 16.0 / 3) < 1e-9)
        #expect(image.pixelSize == PixelSize(width: 600, height: 600))
    }

    @Test func sixteenBitImagesReportTheirDepth() {
        let image = Image(bitmap: Bitmap(width: 2, height: 3, pixelFormat: .rgba16))
        #expect(image.bitDepth == 16)
        #expect(image.memoryCost == 2 * 3 * 8)
    }

    @Test func alphaIsDetectedFromPixelsWhenNotGiven() {
        var opaque = Bitmap(width: 2, height: 1)
        opaque.pixels = [1, 2, 3, 255, 4, 5, 6, 255]
        #expect(!Image(bitmap: opaque).hasAlpha)
        var translucent = opaque
        translucent.pixels[7] = 128
        #expect(Image(bitmap: translucent).hasAlpha)
        #expect(!Image(bitmap: translucent, hasAlpha: false).hasAlpha)
    }

    @Test func scaleComesFromTheLastPathComponent() {
        #expect(Image.scale(forKey: "https://example.com/icons/star@2x.png") == 2)
        #expect(Image.scale(forKey: "star@3x.gif") == 3)
        #expect(Image.scale(forKey: "https://example.com/a.png?name=b@2x.png") == 1)
        #expect(Image.scale(forKey: "https://example.com/@2x.assets/a.png") == 1)
        #expect(Image.scale(forKey: "1@2x.gif") == 2)
        #expect(Image.scale(forKey: "plain.png") == 1)
        let image = Image(bitmap: Bitmap(width: 40, height: 20)).withScale(2)
        #expect(image.size.width == 20 && image.size.height == 10)
    }

    @Test func sixteenBitChannelsNarrowToEightBits() throws {
        var wide = Bitmap(width: 1, height: 1, pixelFormat: .rgba16)
        let channels: [UInt16] = [65535, 0, 32896, 257]
        wide.pixels = channels.flatMap { value in withUnsafeBytes(of: value) { Array($0) } }
        #expect(wide.rgba8(x: 0, y: 0) == RGBA8(red: 255, green: 0, blue: 128, alpha: 1))
        let narrow = try wide.convertedToRGBA8()
        #expect(narrow.pixelFormat == .rgba8)
        #expect(narrow.pixels == [255, 0, 128, 1])
    }
}
