import Foundation
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite("Animation work budget")
struct AnimationWorkBudgetTests {
    @Test func aSmallGIFOfTenThousandFramesOnAHugeCanvasIsRefusedAtOnce() throws {
        // 230 KB: 10,000 one-pixel frames on a 2048×2048 screen. Composing them would
        // process 42 billion canvas pixels.
        let gif = Self.gif(screen: 2048, frames: 10_000)
        #expect(gif.count < 240_000)
        let started = ContinuousClock.now
        var options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 64, height: 64))
        let error = #expect(throws: ImageError.self) { try GIFCoder().decode(gif, options: options) }
        #expect(error?.code == .imageTooLarge)
        #expect(error?.message.contains("frame pixels") == true)
        #expect(ContinuousClock.now - started < .seconds(2))

        options.firstFrameOnly = true
        let first = try GIFCoder().decode(gif, options: options)
        #expect(first.frames.count == 1)
    }

    @Test func theBudgetCountsFramesTimesCanvas() throws {
        let gif = Self.gif(screen: 64, frames: 40)
        var options = ImageDecodeOptions()
        options.maxAnimationWork = 64 * 64 * 40
        #expect(try GIFCoder().decode(gif, options: options).frames.count == 40)
        options.maxAnimationWork -= 1
        #expect(throws: ImageError.self) { try GIFCoder().decode(gif, options: options) }
    }

    @Test func theFrameCountIsCapped() throws {
        let gif = Self.gif(screen: 1, frames: 30)
        var options = ImageDecodeOptions()
        options.maxFrameCount = 29
        let error = #expect(throws: ImageError.self) { try GIFCoder().decode(gif, options: options) }
        #expect(error?.code == .imageTooLarge)
        options.maxFrameCount = 30
        #expect(try GIFCoder().decode(gif, options: options).frames.count == 30)
    }

    @Test(Corpus.required, arguments: ["sdwebimage/TestImageAnimated.webp", "sdwebimage/TestImageAnimated.apng"])
    func webPAndAPNGAnimationsKeepTheBudgetToo(_ path: String) throws {
        let data = try Corpus.data(path)
        var options = ImageDecodeOptions()
        #expect(try ImageCodersManager.shared.decode(data, options: options).frames.count > 1)
        options.maxAnimationWork = 320 * 240
        let error = #expect(throws: ImageError.self) { try ImageCodersManager.shared.decode(data, options: options) }
        #expect(error?.code == .imageTooLarge)
    }

    /// A GIF of `frames` one-pixel frames, 0.02 s each, on a `screen`×`screen` canvas.
    static func gif(screen: Int, frames: Int) -> Data {
        var bytes = Array("GIF89a".utf8)
        let side = [UInt8(screen & 0xFF), UInt8(screen >> 8)]
        bytes += side + side + [0x80, 0, 0]  // a global table of two colours
        bytes += [0, 0, 0, 255, 255, 255]
        bytes += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
        for _ in 0..<frames {
            bytes += [0x21, 0xF9, 4, 0, 2, 0, 0, 0]  // graphic control: 0.02 s
            bytes += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0]  // a 1×1 image at the origin
            bytes += [2, 2, 0x44, 0x01, 0]  // LZW: clear, colour 0, end
        }
        bytes.append(0x3B)
        return Data(bytes)
    }
}
