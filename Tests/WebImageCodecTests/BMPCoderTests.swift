import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
@testable import WebImageBMP
import WebImageTestSupport

/// The BMP and ICO coders on bytes made here: round trips, hostile sizes, truncation.
struct BMPCoderTests {
    static func gradient(width: Int, height: Int, alpha: Bool) -> Bitmap {
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                pixels += [
                    UInt8(x * 255 / max(1, width - 1)), UInt8(y * 255 / max(1, height - 1)), UInt8((x + y) % 256),
                    alpha ? UInt8((x * 7 + y) % 256) : 255,
                ]
            }
        }
        return Bitmap(width: width, height: height, pixels: pixels)
    }

    @Test(arguments: [false, true])
    func encodeDecodeRoundTripIsExact(_ alpha: Bool) throws {
        let bitmap = Self.gradient(width: 33, height: 17, alpha: alpha)
        let data = try BMPCoder().encode(Image(bitmap: bitmap), as: .bmp, options: ImageEncodeOptions())
        #expect(ImageFormat(sniffing: data) == .bmp)
        let decoded = try BMPCoder().decode(data, options: ImageDecodeOptions())
        #expect(decoded.bitmap == bitmap)
        #expect(decoded.hasAlpha == alpha)
    }

    @Test(arguments: [PixelSize(width: 32, height: 24), PixelSize(width: 300, height: 256)])
    func iconEncodeDecodeRoundTripIsExact(_ size: PixelSize) throws {
        let bitmap = Self.gradient(width: size.width, height: size.height, alpha: true)
        let data = try ICOCoder().encode(Image(bitmap: bitmap), as: .ico, options: ImageEncodeOptions())
        #expect(ImageFormat(sniffing: data) == .ico)
        let decoded = try ICOCoder().decode(data, options: ImageDecodeOptions())
        #expect(decoded.bitmap == bitmap)
        #expect(decoded.format == .ico)
    }

    @Test func sixteenBitImagesAreWrittenAsEightBit() throws {
        let wide = Bitmap(width: 2, height: 1, pixelFormat: .rgba16, pixels: [UInt8](repeating: 0xFF, count: 16))
        let data = try BMPCoder().encode(Image(bitmap: wide), as: .bmp, options: ImageEncodeOptions())
        let decoded = try BMPCoder().decode(data, options: ImageDecodeOptions())
        #expect(decoded.bitmap == Bitmap(width: 2, height: 1, pixels: [UInt8](repeating: 0xFF, count: 8)))
    }

    /// A version 3 header for a 24-bit image of `width` × `height`, with no pixel data.
    static func header(width: Int32, height: Int32, bitsPerPixel: UInt16 = 24) -> Data {
        var bytes: [UInt8] = Array("BM".utf8)
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        append(UInt32(54))
        append(UInt32(0))
        append(UInt32(54))
        append(UInt32(40))
        append(width)
        append(height)
        append(UInt16(1))
        append(bitsPerPixel)
        append(UInt32(0))
        append(UInt32(0))
        append(Int32(2835))
        append(Int32(2835))
        append(UInt32(0))
        append(UInt32(0))
        return Data(bytes)
    }

    @Test func headerClaimingTenGigapixelsIsRefusedBeforeAllocating() {
        let data = Self.header(width: 100_000, height: 100_000)
        #expect(throws: ImageError.self) { try BMPCoder().decode(data, options: ImageDecodeOptions()) }
        do {
            _ = try BMPCoder().decode(data, options: ImageDecodeOptions())
        } catch {
            #expect(error.code == .imageTooLarge)
        }
    }

    @Test func truncatedPixelsAreBadData() throws {
        let full = try BMPCoder().encode(Image(bitmap: Self.gradient(width: 8, height: 8, alpha: false)), as: .bmp, options: ImageEncodeOptions())
        for length in [20, 60, full.count - 1] {
            #expect(throws: ImageError.self, "\(length) bytes") { try BMPCoder().decode(full.prefix(length), options: ImageDecodeOptions()) }
        }
    }

    @Test func iconEntryClaimingTenGigapixelsIsRefusedBeforeAllocating() {
        var icon: [UInt8] = [0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 1, 0, 32, 0, 40, 0, 0, 0, 22, 0, 0, 0]
        var payload = [UInt8](Self.header(width: 100_000, height: 200_000, bitsPerPixel: 32).dropFirst(14))
        payload += [UInt8](repeating: 0, count: 4)
        icon += payload
        do {
            _ = try ICOCoder().decode(Data(icon), options: ImageDecodeOptions())
            Issue.record("a 100,000 × 100,000 icon decoded")
        } catch {
            #expect(error.code == .imageTooLarge)
        }
    }

    @Test func iconWithoutEntriesOrWithEntriesOutsideTheFileIsBadData() {
        let empty = Data([0, 0, 1, 0, 0, 0])
        #expect(throws: ImageError(.badImageData, "the icon file lists no images")) { try ICOCoder().decode(empty, options: ImageDecodeOptions()) }
        let outside = Data([0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0, 0xFF, 0xFF, 0, 0, 22, 0, 0, 0])
        #expect(throws: ImageError.self) { try ICOCoder().decode(outside, options: ImageDecodeOptions()) }
    }
}
