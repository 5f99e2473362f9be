#if HEIF
import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
import WebImageHEIF
import WebImageTestSupport

/// The HEIF coder on bytes made here: round trips through libheif's HEVC encoder, and a
/// hostile header.
struct HEIFCoderTests {
    let coder = HEIFCoder()

    @Test(arguments: [false, true])
    func lossyRoundTripStaysClose(_ alpha: Bool) throws {
        try #require(coder.canEncode(to: .heic), "Debian's libheif has x265")
        let bitmap = BMPCoderTests.gradient(width: 64, height: 48, alpha: alpha)
        let data = try coder.encode(Image(bitmap: bitmap), as: .heic, options: ImageEncodeOptions(quality: 0.9))
        #expect(ImageFormat(sniffing: data) == .heic)
        let decoded = try coder.decode(data, options: ImageDecodeOptions())
        #expect(decoded.pixelSize == bitmap.size)
        #expect(decoded.hasAlpha == alpha)
        let difference = try #require(ReferencePixels.maximumDifference(decoded.bitmap, bitmap))
        #expect(difference <= 48, "max difference \(difference)")
    }

    @Test func heifIsNotWritten() {
        #expect(!coder.canEncode(to: .heif))
        #expect(!coder.canEncode(to: .avif))
    }

    /// A real HEIC whose `ispe` boxes are rewritten to claim 100,000 × 100,000 pixels.
    @Test func headerClaimingTenGigapixelsIsRefusedBeforeAllocating() throws {
        let encoded = try coder.encode(Image(bitmap: BMPCoderTests.gradient(width: 16, height: 16, alpha: false)), as: .heic, options: ImageEncodeOptions())
        let (data, patched) = ISOMediaSizeClaim.hundredThousandSquare(encoded)
        #expect(patched >= 1)
        do {
            _ = try coder.decode(data, options: ImageDecodeOptions())
            Issue.record("a 100,000 × 100,000 HEIC decoded")
        } catch {
            #expect(error.code == .imageTooLarge, "\(error)")
        }
    }

    @Test func truncatedFileIsAnError() throws {
        let data = try coder.encode(Image(bitmap: BMPCoderTests.gradient(width: 64, height: 64, alpha: false)), as: .heic, options: ImageEncodeOptions())
        for length in [16, 40, data.count / 2, data.count - 1] {
            #expect(throws: ImageError.self, "\(length) bytes") { try coder.decode(data.prefix(length), options: ImageDecodeOptions()) }
        }
    }
}
#endif
