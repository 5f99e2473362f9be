import Foundation
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// `keep_copyright` keeps the source's EXIF `Copyright` and `Artist` and XMP `dc:rights` in
/// JPEG, PNG, WebP and AVIF results, while the rest of the metadata stays stripped.
@Suite("ImageServer keep_copyright", .serialized, .timeLimit(.minutes(15)))
struct ImageServerKeepCopyrightTests {
    static let expected = ImageCopyright(copyright: "(c) 2026 Example Photo", artist: "A. Photographer", rights: "All rights reserved")

    /// A JPEG whose EXIF holds `Make` (`Canon`), `Artist` and `Copyright`, and whose XMP
    /// holds a creator tool beside `dc:rights`.
    static func source() throws -> Data {
        let artist = Array("A. Photographer\0".utf8)
        let copyright = Array("(c) 2026 Example Photo\0".utf8)
        let make = Array("Canon\0".utf8)
        // Big-endian TIFF: header, a directory of three entries, no next directory, the texts.
        var dataOffset = 8 + 2 + 3 * 12 + 4
        var tiff: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 3]
        var texts: [UInt8] = []
        for (tag, text) in [(UInt16(0x010F), make), (0x013B, artist), (0x8298, copyright)] {
            tiff += [UInt8(tag >> 8), UInt8(tag & 0xFF), 0, 2, 0, 0, 0, UInt8(text.count)]
            tiff += [0, 0, UInt8(dataOffset >> 8), UInt8(dataOffset & 0xFF)]
            texts += text
            dataOffset += text.count
        }
        tiff += [0, 0, 0, 0] + texts
        let xmp = Array(
            (#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description xmp:CreatorTool="SecretTool 9">"#
                + #"<dc:rights><rdf:Alt><rdf:li xml:lang="x-default">All rights reserved</rdf:li></rdf:Alt></dc:rights>"#
                + "</rdf:Description></rdf:RDF></x:xmpmeta>").utf8)
        let plain = [UInt8](
            try ImageCodersManager.shared.encode(Image(bitmap: ManagerTestImage.bitmap(width: 64, height: 48, tint: 40)), as: .jpeg))
        var segments: [UInt8] = []
        for payload in [Array("Exif\0\0".utf8) + tiff, Array("http://ns.adobe.com/xap/1.0/\0".utf8) + xmp] {
            segments += [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        return Data(plain[..<2] + segments + plain[2...])
    }

    @Test(arguments: ["jpeg", "png", "webp"])
    func theCopyrightIsKeptAndTheRestStripped(format: String) async throws {
        try await ImageServerHarness.run { harness in
            harness.serve("/photo.jpg", try Self.source(), contentType: "image/jpeg")
            let kept = try await harness.get(harness.path("resize=32|keep_copyright|format=\(format)", source: "/photo.jpg"))
            #expect(kept.status == 200)
            #expect(ImageCopyright(readingContainer: kept.body) == Self.expected)
            #expect(kept.body.range(of: Data("Canon".utf8)) == nil, "EXIF Make is stripped")
            #expect(kept.body.range(of: Data("SecretTool".utf8)) == nil, "the rest of the XMP is stripped")
            #expect(try kept.image().pixelWidth == 32)
            // Without the option (a result of its own), nothing is kept.
            let stripped = try await harness.get(harness.path("resize=32|format=\(format)", source: "/photo.jpg"))
            #expect(stripped.status == 200)
            #expect(ImageCopyright(readingContainer: stripped.body) == nil)
        }
    }

    @Test func anAVIFResultCarriesTheCopyright() async throws {
        guard ImageCodersManager.shared.canEncode(to: .avif) else { return }
        try await ImageServerHarness.run { harness in
            harness.serve("/photo.jpg", try Self.source(), contentType: "image/jpeg")
            let kept = try await harness.get(harness.path("resize=32|keep_copyright|format=avif", source: "/photo.jpg"))
            #expect(kept.status == 200)
            #expect(kept.body.range(of: Data(try #require(Self.expected.exifPayload))) != nil)
            #expect(kept.body.range(of: Data(try #require(Self.expected.xmpPacket))) != nil)
            #expect(kept.body.range(of: Data("Canon".utf8)) == nil)
        }
    }

    @Test(arguments: ["resize=10|keep_copyright|keep_copyright", "resize=10|keep_copyright=1", "raw|keep_copyright"])
    func badUsesAreRefused(spec: String) {
        #expect(throws: ImageServerError.self) { try ImageServerSpec(spec, presets: [:], onlyPresets: false) }
    }
}
