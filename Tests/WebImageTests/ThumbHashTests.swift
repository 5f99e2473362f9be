import Foundation
import Testing

@testable import WebImage
import WebImageTestSupport

@Suite("ThumbHash")
struct ThumbHashTests {
    @Test("encodes an opaque picture to the reference's bytes")
    func encodesOpaque() throws {
        let image = Image(bitmap: PlaceholderReference.gradient(width: 100, height: 75, alpha: false))
        #expect(try image.thumbHash().base64 == PlaceholderReference.opaqueThumbHash)
    }

    @Test("encodes a picture with alpha to the reference's bytes")
    func encodesAlpha() throws {
        let image = Image(bitmap: PlaceholderReference.gradient(width: 60, height: 90, alpha: true))
        #expect(try image.thumbHash().base64 == PlaceholderReference.alphaThumbHash)
    }

    @Test("decodes to the reference's pixels within one level", arguments: [false, true])
    func decodes(withAlpha: Bool) throws {
        let (hash, expectedPixels) =
            withAlpha
            ? (PlaceholderReference.alphaThumbHash, PlaceholderReference.alphaThumbHashPixels)
            : (PlaceholderReference.opaqueThumbHash, PlaceholderReference.opaqueThumbHashPixels)
        let (width, height) = withAlpha ? (19, 32) : (32, 23)
        let image = try ThumbHash(base64: hash).image()
        let expected = try #require(Data(base64Encoded: expectedPixels))
        #expect(image.pixelSize == PixelSize(width: width, height: height))
        #expect(image.bitmap.pixels.count == expected.count)
        let worst = zip(image.bitmap.pixels, expected).map { abs(Int($0) - Int($1)) }.max()
        #expect(worst ?? .max <= 1)
    }

    @Test("reads the average colour and aspect ratio from the header")
    func header() throws {
        let opaque = try ThumbHash(base64: PlaceholderReference.opaqueThumbHash)
        #expect(opaque.averageColor == RGBA8(red: 126, green: 122, blue: 128))
        #expect(opaque.aspectRatio == 7.0 / 5)
        let clear = try ThumbHash(base64: PlaceholderReference.alphaThumbHash)
        #expect(clear.averageColor == RGBA8(red: 140, green: 144, blue: 130, alpha: 204))
        #expect(clear.aspectRatio == 3.0 / 5)
        #expect(clear.image().hasAlpha)
    }

    @Test("reduces a picture larger than 100 pixels a side before encoding")
    func reducesLargePictures() throws {
        let large = PlaceholderReference.gradient(width: 400, height: 300, alpha: false)
        let hash = try Image(bitmap: large).thumbHash()
        #expect(try hash == Image(bitmap: large.resized(to: PixelSize(width: 100, height: 75))).thumbHash())
        #expect(hash.aspectRatio == 7.0 / 5)
        #expect(hash.image().pixelSize == PixelSize(width: 32, height: 23))
    }

    @Test("round-trips through base64 and data, padded or not")
    func roundTrips() throws {
        let hash = try Image(bitmap: PlaceholderReference.gradient(width: 60, height: 90, alpha: true)).thumbHash()
        #expect(try ThumbHash(data: hash.data) == hash)
        #expect(try ThumbHash(base64: hash.base64) == hash)
        let unpadded = String(hash.base64.prefix { $0 != "=" })
        #expect(unpadded != hash.base64)
        #expect(try ThumbHash(base64: unpadded) == hash)
    }

    @Test("hashes a colour-managed image in sRGB", .enabled(if: Corpus.isAvailable, "needs ../shared/corpora"))
    func hashesInSRGB() throws {
        let data = try Data(contentsOf: Corpus.url("sdwebimage/TestICCProfile.jpg"))
        let image = try ImageCodersManager.shared.decode(data, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 64, height: 64)))
        try #require(image.colorProfile != nil)
        #expect(try image.thumbHash() == image.convertedToSRGB().thumbHash())
        #if ColorManagement
        #expect(try image.thumbHash() != image.withColorProfile(nil).thumbHash(), "the profile's colours are not sRGB's")
        #endif
    }

    @Test(
        "refuses bytes that are not a hash",
        arguments: [
            Data(),
            Data([0xDF, 0x07, 0x0A, 0x35]),
            Data(base64Encoded: PlaceholderReference.opaqueThumbHash)!.dropLast(),
            Data(base64Encoded: PlaceholderReference.opaqueThumbHash)! + [0],
            Data([0xDF, 0x07, 0x0A, 0x30, 0x9A]),
        ])
    func refusesBadData(data: Data) {
        #expect { try ThumbHash(data: data) } throws: { ($0 as? ImageError)?.code == .badImageData }
    }

    @Test("refuses text that is not base64")
    func refusesBadBase64() {
        #expect { try ThumbHash(base64: "not base64!") } throws: { ($0 as? ImageError)?.code == .badImageData }
    }
}
