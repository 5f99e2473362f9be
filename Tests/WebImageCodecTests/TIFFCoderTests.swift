#if TIFF
import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
import WebImageTIFF
import WebImageTestSupport

/// The TIFF coder on bytes made here: round trips through libtiff, hostile headers.
struct TIFFCoderTests {
    @Test(arguments: [false, true])
    func encodeDecodeRoundTripIsExact(_ alpha: Bool) throws {
        let bitmap = BMPCoderTests.gradient(width: 41, height: 23, alpha: alpha)
        let data = try TIFFCoder().encode(Image(bitmap: bitmap), as: .tiff, options: ImageEncodeOptions())
        #expect(ImageFormat(sniffing: data) == .tiff)
        let decoded = try TIFFCoder().decode(data, options: ImageDecodeOptions())
        #expect(decoded.bitmap == bitmap)
    }

    @Test func everyFrameBecomesAPage() throws {
        let frames = (0..<3).map { index in
            ImageFrame(
                bitmap: Bitmap(width: 5, height: 4, pixels: [UInt8](repeating: UInt8(40 * index + 10), count: 80).enumerated().map { $0.offset % 4 == 3 ? 255 : $0.element }))
        }
        let data = try TIFFCoder().encode(Image(frames: frames), as: .tiff, options: ImageEncodeOptions())
        let decoded = try TIFFCoder().decode(data, options: ImageDecodeOptions())
        #expect(decoded.frames.map(\.bitmap) == frames.map(\.bitmap))
        let first = try TIFFCoder().decode(data, options: ImageDecodeOptions(firstFrameOnly: true))
        #expect(first.frames.count == 1)
        let single = try TIFFCoder().encode(Image(frames: frames), as: .tiff, options: ImageEncodeOptions(firstFrameOnly: true))
        #expect(try TIFFCoder().decode(single, options: ImageDecodeOptions()).frames.count == 1)
    }

    /// Pages are held to the animation limits: their count to `maxFrameCount` before any
    /// is decoded, their count times their pixels to `maxAnimationWork`.
    @Test func pagesCountAgainstTheFrameLimits() throws {
        func page(_ width: Int, _ height: Int) -> ImageFrame {
            ImageFrame(bitmap: Bitmap(width: width, height: height, pixels: [UInt8](repeating: 200, count: width * height * 4)))
        }
        let thousand = try TIFFCoder().encode(Image(frames: (0..<1_000).map { _ in page(1, 1) }), as: .tiff, options: ImageEncodeOptions())
        var options = ImageDecodeOptions()
        #expect(try TIFFCoder().decode(thousand, options: options).frames.count == 1_000)
        options.maxFrameCount = 100
        let error = #expect(throws: ImageError.self) { try TIFFCoder().decode(thousand, options: options) }
        #expect(error?.code == .imageTooLarge)
        options.firstFrameOnly = true
        #expect(try TIFFCoder().decode(thousand, options: options).frames.count == 1)

        // Two 2×2 pages: 8 pixels in all.
        let growing = try TIFFCoder().encode(Image(frames: [page(2, 2), page(2, 2)]), as: .tiff, options: ImageEncodeOptions())
        var budget = ImageDecodeOptions()
        budget.maxAnimationWork = 8
        #expect(try TIFFCoder().decode(growing, options: budget).frames.count == 2)
        budget.maxAnimationWork = 7
        let refused = #expect(throws: ImageError.self) { try TIFFCoder().decode(growing, options: budget) }
        #expect(refused?.message.contains("frame pixels") == true)
    }

    @Test func sixteenBitImagesRoundTripAtSixteenBits() throws {
        var samples: [UInt16] = []
        for index in 0..<12 { samples += [UInt16(index * 5000), 0x1234, 0xFEDC, 0xFFFF] }
        let pixels = samples.withUnsafeBytes { Array($0) }
        let bitmap = Bitmap(width: 4, height: 3, pixelFormat: .rgba16, pixels: pixels)
        let data = try TIFFCoder().encode(Image(bitmap: bitmap), as: .tiff, options: ImageEncodeOptions())
        let decoded = try TIFFCoder().decode(data, options: ImageDecodeOptions())
        #expect(decoded.bitmap == bitmap)
    }

    /// A little-endian TIFF whose one directory claims `width` × `height` 8-bit grey
    /// pixels in one strip of 1 byte.
    static func header(width: UInt32, height: UInt32) -> Data {
        var bytes: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0]
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        let entries: [(UInt16, UInt16, UInt32)] = [
            (256, 4, width), (257, 4, height), (258, 3, 8), (259, 3, 1), (262, 3, 1),
            (273, 4, 8 + 2 + 8 * 12 + 4), (278, 4, height), (279, 4, 1),
        ]
        append(UInt16(entries.count))
        for (tag, type, value) in entries {
            append(tag)
            append(type)
            append(UInt32(1))
            if type == 3 {
                append(UInt16(value))
                append(UInt16(0))
            } else {
                append(value)
            }
        }
        append(UInt32(0))
        bytes.append(0x80)
        return Data(bytes)
    }

    @Test func headerClaimingTenGigapixelsIsRefusedBeforeAllocating() {
        do {
            _ = try TIFFCoder().decode(Self.header(width: 100_000, height: 100_000), options: ImageDecodeOptions())
            Issue.record("a 100,000 × 100,000 TIFF decoded")
        } catch {
            #expect(error.code == .imageTooLarge)
        }
    }

    /// The header reader gives the first page's declared size without decoding (so the
    /// server plans a TIFF at its size), and the manager's header check holds it to the
    /// pixel limit.
    @Test func theHeaderDeclaresTheFirstPagesSize() throws {
        #expect(try TIFFCoder().pixelSize(of: Self.header(width: 100_000, height: 30)) == PixelSize(width: 100_000, height: 30))
        let page = ImageFrame(bitmap: BMPCoderTests.gradient(width: 41, height: 23, alpha: false))
        let data = try TIFFCoder().encode(Image(frames: [page, page]), as: .tiff, options: ImageEncodeOptions())
        #expect(try TIFFCoder().pixelSize(of: data) == PixelSize(width: 41, height: 23))
        let manager = ImageCodersManager(coders: [TIFFCoder()])
        let refused = #expect(throws: ImageError.self) { try manager.checkHeader(of: Self.header(width: 100_000, height: 100_000)) }
        #expect(refused?.code == .imageTooLarge)
        let broken = #expect(throws: ImageError.self) { try TIFFCoder().pixelSize(of: data.prefix(6)) }
        #expect(broken?.code == .badImageData)
    }

    @Test func truncatedFileIsBadDataAndPrintsNothing() throws {
        let data = try TIFFCoder().encode(Image(bitmap: BMPCoderTests.gradient(width: 64, height: 64, alpha: false)), as: .tiff, options: ImageEncodeOptions())
        for length in [8, 16, data.count / 2] {
            #expect(throws: ImageError.self, "\(length) bytes") { try TIFFCoder().decode(data.prefix(length), options: ImageDecodeOptions()) }
        }
    }
}
#endif
