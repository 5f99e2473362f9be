#if AVIF
import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
import WebImageAVIF
import WebImageTestSupport

/// The AVIF coder on bytes made here: round trips through libavif's encoder (aom) and
/// decoder (dav1d), sequences, 16-bit, thumbnails and hostile headers.
struct AVIFCoderTests {
    let coder = AVIFCoder(encodingSpeed: 10)

    @Test func losslessRoundTripIsExact() throws {
        let bitmap = BMPCoderTests.gradient(width: 41, height: 23, alpha: true)
        let data = try coder.encode(Image(bitmap: bitmap), as: .avif, options: ImageEncodeOptions(lossless: true))
        #expect(ImageFormat(sniffing: data) == .avif)
        let decoded = try coder.decode(data, options: ImageDecodeOptions())
        #expect(decoded.format == .avif)
        #expect(decoded.bitmap == bitmap)
    }

    @Test(arguments: [false, true])
    func lossyRoundTripStaysClose(_ alpha: Bool) throws {
        let bitmap = BMPCoderTests.gradient(width: 64, height: 48, alpha: alpha)
        let data = try coder.encode(Image(bitmap: bitmap), as: .avif, options: ImageEncodeOptions(quality: 0.9))
        let decoded = try coder.decode(data, options: ImageDecodeOptions())
        #expect(decoded.pixelSize == bitmap.size)
        #expect(decoded.hasAlpha == alpha)
        let difference = try #require(ReferencePixels.maximumDifference(decoded.bitmap, bitmap))
        #expect(difference <= 48, "max difference \(difference)")
    }

    @Test func lowerQualityWritesFewerBytes() throws {
        let image = Image(bitmap: BMPCoderTests.gradient(width: 96, height: 96, alpha: false))
        let high = try coder.encode(image, as: .avif, options: ImageEncodeOptions(quality: 0.95))
        let low = try coder.encode(image, as: .avif, options: ImageEncodeOptions(quality: 0.2))
        #expect(low.count < high.count)
    }

    @Test func sequenceKeepsFramesAndDurations() throws {
        let frames: [ImageFrame] = (0..<3).map { index in
            let pixel: [UInt8] = [UInt8(80 * index), 100, 200, 255]
            let pixels = [[UInt8]](repeating: pixel, count: 32 * 16).flatMap { $0 }
            return ImageFrame(bitmap: Bitmap(width: 32, height: 16, pixels: pixels), duration: 0.1 * Double(index + 1))
        }
        let data = try coder.encode(Image(frames: frames, loopCount: 0), as: .avif, options: ImageEncodeOptions(lossless: true))
        let info = try coder.animationInfo(of: data)
        #expect(info.frameCount == 3)
        #expect(info.canvasSize == PixelSize(width: 32, height: 16))
        let expectedDurations: [Double] = [0.1, 0.2, 0.3]
        for (duration, expected) in zip(info.frameDurations, expectedDurations) {
            #expect(abs(duration - expected) < 0.002)
        }
        let decoded = try coder.decode(data, options: ImageDecodeOptions())
        #expect(decoded.frames.map(\.bitmap) == frames.map(\.bitmap))
        #expect(try coder.decode(data, options: ImageDecodeOptions(firstFrameOnly: true)).frames.count == 1)

        // Frames on demand, out of order, give the same pixels.
        let animation = try AnimatedImage(data: data, coder: coder)
        #expect(try animation.frame(at: 2).bitmap == frames[2].bitmap)
        #expect(try animation.frame(at: 1).bitmap == frames[1].bitmap)
    }

    @Test func sixteenBitImagesDecodeAsSixteenBits() throws {
        var samples: [UInt16] = []
        for y in 0..<16 {
            for x in 0..<16 { samples += [UInt16(x * 4096), UInt16(y * 4096), 0x8000, 0xFFFF] }
        }
        let bitmap = Bitmap(width: 16, height: 16, pixelFormat: .rgba16, pixels: samples.withUnsafeBytes { Array($0) })
        let data = try coder.encode(Image(bitmap: bitmap), as: .avif, options: ImageEncodeOptions(lossless: true))
        let decoded = try coder.decode(data, options: ImageDecodeOptions())
        #expect(decoded.bitmap.pixelFormat == .rgba16)
        // Written at 10 bits: each 16-bit sample comes back within one 10-bit step.
        let back = decoded.bitmap.pixels.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
        let worst = zip(back, samples).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 65535 / 1023 + 1, "worst \(worst)")
    }

    @Test func thumbnailIsResampled() throws {
        let data = try coder.encode(Image(bitmap: BMPCoderTests.gradient(width: 200, height: 100, alpha: false)), as: .avif, options: ImageEncodeOptions())
        let image = try coder.decode(data, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 50, height: 50)))
        #expect(image.pixelSize == PixelSize(width: 50, height: 25))
        #expect(try coder.pixelSize(of: data) == PixelSize(width: 200, height: 100))
    }

    /// A real AVIF whose `ispe` boxes are rewritten to claim 100,000 × 100,000 pixels.
    @Test func headerClaimingTenGigapixelsIsRefusedBeforeAllocating() throws {
        let encoded = try coder.encode(Image(bitmap: BMPCoderTests.gradient(width: 16, height: 16, alpha: false)), as: .avif, options: ImageEncodeOptions())
        let (data, patched) = ISOMediaSizeClaim.hundredThousandSquare(encoded)
        #expect(patched >= 1)
        do {
            _ = try coder.decode(data, options: ImageDecodeOptions())
            Issue.record("a 100,000 × 100,000 AVIF decoded")
        } catch {
            #expect(error.code == .imageTooLarge || error.code == .badImageData, "\(error)")
        }
        #expect(throws: ImageError.self) { try ImageCodersManager.shared.checkHeader(of: data) }
    }

    @Test func truncatedFileIsAnError() throws {
        let data = try coder.encode(Image(bitmap: BMPCoderTests.gradient(width: 64, height: 64, alpha: false)), as: .avif, options: ImageEncodeOptions())
        for length in [16, 40, data.count / 2, data.count - 1] {
            #expect(throws: ImageError.self, "\(length) bytes") { try coder.decode(data.prefix(length), options: ImageDecodeOptions()) }
        }
    }

    @Test func managerRoutesAVIFHere() throws {
        #expect(ImageCodersManager.shared.decodableFormats.contains(.avif))
        #expect(ImageCodersManager.shared.canEncode(to: .avif))
        let data = try ImageCodersManager.shared.encode(Image(bitmap: BMPCoderTests.gradient(width: 8, height: 8, alpha: false)), as: .avif)
        #expect(try ImageCodersManager.shared.decode(data).format == .avif)
    }
}
#endif
