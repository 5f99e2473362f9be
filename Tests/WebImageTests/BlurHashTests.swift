import Foundation
import Testing

@testable import WebImage
import WebImageTestSupport

@Suite("BlurHash")
struct BlurHashTests {
    @Test(
        "encodes to the reference's text",
        arguments: [
            (4, 3, "L%HV9x2Y$6Sghpayjsf6gdfPfRfP"),
            (1, 1, "00HV9x"),
            (3, 5, "c%HV9x2Y$6hpayjsgdfPfRi~a{jsf*fPfR"),
            (
                9, 9,
                "|%HV9x2Y$6Sgo2bGjrfka{hpayjsf6fPf5fRf8fQgdfPfRfPfRfPfOfQfPi~a{jsfPfPfOfRfRfQf*fPfRfPfRfPfOfQfPjba{jsfPfPfNfRfRfQfRfPfRfPfSfOfNfRfPj@a_jsfNfOfLfSfTfRf5fRfOfRfNfTfVfPfS"
            ),
        ])
    func encodes(across: Int, down: Int, expected: String) throws {
        let image = Image(bitmap: PlaceholderReference.gradient(width: 100, height: 75, alpha: false))
        let hash = try image.blurHash(components: (across, down))
        #expect(hash.string == expected)
        #expect(hash.components == (across, down))
        #expect(try BlurHash(expected) == hash)
    }

    @Test(
        "decodes the published hashes to the reference's pixels within one level",
        arguments: [("LEHV6nWB2yk8pyo0adR*.7kCMdnj", 16, 12, 1.0), ("LGF5]+Yk^6#M@-5c,1J5@[or[Q6.", 12, 9, 2.0)])
    func decodes(hash: String, width: Int, height: Int, punch: Double) throws {
        let expectedPixels = hash.hasPrefix("LEHV") ? PlaceholderReference.readmeBlurHashPixels : PlaceholderReference.demoBlurHashPixels
        let image = try BlurHash(hash).image(width: width, height: height, punch: punch)
        let expected = try #require(Data(base64Encoded: expectedPixels))
        #expect(image.pixelSize == PixelSize(width: width, height: height))
        #expect(image.bitmap.pixels.count == expected.count)
        let worst = zip(image.bitmap.pixels, expected).map { abs(Int($0) - Int($1)) }.max()
        #expect(worst ?? .max <= 1)
        #expect(!image.hasAlpha)
    }

    @Test("reads the components and average colour")
    func header() throws {
        let hash = try BlurHash("LEHV6nWB2yk8pyo0adR*.7kCMdnj")
        #expect(hash.components == (4, 3))
        #expect(hash.averageColor == RGBA8(red: 151, green: 150, blue: 149))
        #expect(hash.description == "LEHV6nWB2yk8pyo0adR*.7kCMdnj")
    }

    @Test("a one-component hash decodes to its average colour")
    func flat() throws {
        let image = try BlurHash("00HV9x").image(width: 4, height: 3)
        let colour = try BlurHash("00HV9x").averageColor
        #expect(image.bitmap.pixels == Array(repeating: [colour.red, colour.green, colour.blue, 255], count: 12).flatMap { $0 })
    }

    @Test("hashes a colour-managed image in sRGB", .enabled(if: Corpus.isAvailable, "needs ../shared/corpora"))
    func hashesInSRGB() throws {
        let data = try Data(contentsOf: Corpus.url("sdwebimage/TestICCProfile.jpg"))
        let image = try ImageCodersManager.shared.decode(data, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 64, height: 64)))
        try #require(image.colorProfile != nil)
        #expect(try image.blurHash() == image.convertedToSRGB().blurHash())
        #if ColorManagement
        #expect(try image.blurHash() != image.withColorProfile(nil).blurHash(), "the profile's colours are not sRGB's")
        #endif
    }

    @Test(
        "refuses text that is not a hash",
        arguments: [
            "",
            "LEHV6",
            "LEHV6nWB2yk8pyo0adR*.7kCMdn",
            "LEHV6nWB2yk8pyo0adR*.7kCMdnjj",
            "LEHV6nWB2yk8pyo0adR*.7kCMdn\"",
            "L\"HV6nWB2yk8pyo0adR*.7kCMdnj",
            "~EHV6nWB2yk8pyo0adR*.7kCMdnj",
            "0E~~~~",
            "LEHV6nWB2yk8pyo0adR*.7kCMd~~",
            "LEHV6nWB2yk8pyo0adR*.7kCMdé",
        ])
    func refusesBadText(text: String) {
        #expect { try BlurHash(text) } throws: { ($0 as? ImageError)?.code == .badImageData }
    }
}
