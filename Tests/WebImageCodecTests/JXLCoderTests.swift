#if JXL
import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
import WebImageJXL
import WebImageTestSupport

/// The JPEG XL coder on bytes made here: lossless and lossy round trips through libjxl,
/// animations, 16-bit, partial images and hostile headers.
struct JXLCoderTests {
    let coder = JXLCoder(encodingEffort: 3)

    @Test(arguments: [false, true])
    func losslessRoundTripIsExact(_ alpha: Bool) throws {
        let bitmap = BMPCoderTests.gradient(width: 41, height: 23, alpha: alpha)
        let data = try coder.encode(Image(bitmap: bitmap), as: .jxl, options: ImageEncodeOptions(lossless: true))
        #expect(ImageFormat(sniffing: data) == .jxl)
        let decoded = try coder.decode(data, options: ImageDecodeOptions())
        #expect(decoded.format == .jxl)
        #expect(decoded.hasAlpha == alpha)
        #expect(decoded.bitmap == bitmap)
    }

    @Test func lossyRoundTripStaysCloseAndShrinksWithQuality() throws {
        let bitmap = BMPCoderTests.gradient(width: 96, height: 64, alpha: false)
        let high = try coder.encode(Image(bitmap: bitmap), as: .jxl, options: ImageEncodeOptions(quality: 0.95))
        let low = try coder.encode(Image(bitmap: bitmap), as: .jxl, options: ImageEncodeOptions(quality: 0.3))
        #expect(low.count < high.count)
        let decoded = try coder.decode(high, options: ImageDecodeOptions())
        let difference = try #require(ReferencePixels.maximumDifference(decoded.bitmap, bitmap))
        #expect(difference <= 32, "max difference \(difference)")
    }

    @Test func sixteenBitLosslessIsExact() throws {
        var samples: [UInt16] = []
        for y in 0..<8 {
            for x in 0..<8 { samples += [UInt16(x * 8191), UInt16(y * 8191), 0x1234, 0xFFFF] }
        }
        let bitmap = Bitmap(width: 8, height: 8, pixelFormat: .rgba16, pixels: samples.withUnsafeBytes { Array($0) })
        let data = try coder.encode(Image(bitmap: bitmap), as: .jxl, options: ImageEncodeOptions(lossless: true))
        let decoded = try coder.decode(data, options: ImageDecodeOptions())
        #expect(decoded.bitmap == bitmap)
    }

    @Test func animationKeepsFramesDurationsAndLoops() throws {
        let frames: [ImageFrame] = (0..<3).map { index in
            let pixel: [UInt8] = [UInt8(80 * index), 100, 200, 255]
            return ImageFrame(bitmap: Bitmap(width: 16, height: 8, pixels: [[UInt8]](repeating: pixel, count: 128).flatMap { $0 }), duration: 0.05 * Double(index + 1))
        }
        let data = try coder.encode(Image(frames: frames, loopCount: 3), as: .jxl, options: ImageEncodeOptions(lossless: true))
        let info = try coder.animationInfo(of: data)
        #expect(info.frameCount == 3)
        #expect(info.loopCount == 3)
        let expected: [Double] = [0.05, 0.1, 0.15]
        for (duration, want) in zip(info.frameDurations, expected) {
            #expect(abs(duration - want) < 0.001)
        }
        let decoded = try coder.decode(data, options: ImageDecodeOptions())
        #expect(decoded.frames.map(\.bitmap) == frames.map(\.bitmap))
        #expect(decoded.loopCount == 3)
        #expect(try coder.decode(data, options: ImageDecodeOptions(firstFrameOnly: true)).frames.count == 1)
    }

    @Test func thumbnailIsResampled() throws {
        let data = try coder.encode(Image(bitmap: BMPCoderTests.gradient(width: 200, height: 100, alpha: false)), as: .jxl, options: ImageEncodeOptions())
        let image = try coder.decode(data, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 50, height: 50)))
        #expect(image.pixelSize == PixelSize(width: 50, height: 25))
        #expect(try coder.pixelSize(of: data) == PixelSize(width: 200, height: 100))
    }

    /// A codestream header (signature, then SizeHeader) declaring 100,000 × 100,000.
    static func hugeHeader() -> Data {
        // SizeHeader: small = 0, height: selector 3 (30 bits) of 99,999, no ratio, width
        // selector 3 (30 bits) of 99,999; then default metadata and padding.
        var bits: [Bool] = []
        func write(_ value: Int, _ count: Int) { for bit in 0..<count { bits.append(value >> bit & 1 == 1) } }
        write(0, 1)
        write(3, 2)
        write(99_999, 30)
        write(0, 3)
        write(3, 2)
        write(99_999, 30)
        write(1, 1)  // ImageMetadata: all_default
        write(0, 64)
        var bytes: [UInt8] = [0xFF, 0x0A]
        for start in stride(from: 0, to: bits.count, by: 8) {
            var byte: UInt8 = 0
            for (offset, bit) in bits[start..<min(start + 8, bits.count)].enumerated() where bit { byte |= 1 << offset }
            bytes.append(byte)
        }
        return Data(bytes + [UInt8](repeating: 0, count: 64))
    }

    @Test func headerClaimingTenGigapixelsIsRefusedBeforeAllocating() {
        let data = Self.hugeHeader()
        do {
            _ = try coder.decode(data, options: ImageDecodeOptions())
            Issue.record("a 100,000 × 100,000 JPEG XL decoded")
        } catch {
            #expect(error.code == .imageTooLarge, "\(error)")
        }
        #expect(throws: ImageError.self) { try ImageCodersManager.shared.checkHeader(of: data) }
    }

    @Test func truncatedFileIsAnErrorAndAPartialImageIncrementally() throws {
        let bitmap = BMPCoderTests.gradient(width: 300, height: 300, alpha: false)
        let data = try coder.encode(Image(bitmap: bitmap), as: .jxl, options: ImageEncodeOptions(quality: 0.9))
        for length in [4, 20, data.count / 2, data.count - 1] {
            #expect(throws: ImageError.self, "\(length) bytes") { try coder.decode(data.prefix(length), options: ImageDecodeOptions()) }
        }
        #expect(try coder.decodeIncrementally(data.prefix(4), isComplete: false, options: ImageDecodeOptions()) == nil)
        let whole = try #require(try coder.decodeIncrementally(data, isComplete: true, options: ImageDecodeOptions()))
        #expect(whole.pixelSize == bitmap.size)
    }

    @Test func managerRoutesJXLHere() throws {
        #expect(ImageCodersManager.shared.decodableFormats.contains(.jxl))
        let data = try ImageCodersManager.shared.encode(Image(bitmap: BMPCoderTests.gradient(width: 8, height: 8, alpha: false)), as: .jxl)
        #expect(try ImageCodersManager.shared.decode(data).format == .jxl)
    }
}
#endif
