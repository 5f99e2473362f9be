import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
import WebImageTestSupport

/// The authorship a picture states — EXIF `Copyright` and `Artist`, XMP `dc:rights` — written
/// by the JPEG, PNG, WebP and AVIF coders when the encode options carry it, and read back
/// from the files they write.
struct ImageCopyrightTests {
    static let copyright = ImageCopyright(
        copyright: "© 2026 Ada Lovelace, all rights reserved", artist: "Ada Lovelace", rights: "CC BY-ND 4.0 <https://example.com/l?a=1&b=2>")

    static func image() -> Image {
        Image(bitmap: BMPCoderTests.gradient(width: 32, height: 24, alpha: false))
    }

    @Test(arguments: [ImageFormat.jpeg, .png, .webp])
    func theCopyrightIsReadBackFromTheOutput(format: ImageFormat) throws {
        let data = try ImageCodersManager.shared.encode(Self.image(), as: format, options: ImageEncodeOptions(copyright: Self.copyright))
        #expect(ImageCopyright(readingContainer: data) == Self.copyright)
        // The file still decodes to the same picture size.
        #expect(try ImageCodersManager.shared.decode(data).pixelSize == PixelSize(width: 32, height: 24))
        let plain = try ImageCodersManager.shared.encode(Self.image(), as: format, options: ImageEncodeOptions())
        #expect(ImageCopyright(readingContainer: plain) == nil, "no metadata unless asked for")
    }

    @Test func eachFieldAloneIsWrittenAlone() throws {
        for copyright in [ImageCopyright(copyright: "© A"), ImageCopyright(artist: "B"), ImageCopyright(rights: "C")] {
            for format in [ImageFormat.jpeg, .png, .webp] {
                let data = try ImageCodersManager.shared.encode(Self.image(), as: format, options: ImageEncodeOptions(copyright: copyright))
                #expect(ImageCopyright(readingContainer: data) == copyright, "\(format) \(copyright)")
            }
        }
    }

    @Test func anAnimatedWebPAndAnAPNGKeepItToo() throws {
        let frames = (0..<2).map { ImageFrame(bitmap: BMPCoderTests.gradient(width: 16, height: 8, alpha: $0 == 1), duration: 0.1) }
        for format in [ImageFormat.webp, .png] {
            let data = try ImageCodersManager.shared.encode(
                Image(frames: frames, loopCount: 0), as: format, options: ImageEncodeOptions(copyright: Self.copyright))
            #expect(ImageCopyright(readingContainer: data) == Self.copyright, "\(format)")
            #expect(try ImageCodersManager.shared.decode(data).frames.count == 2, "\(format)")
        }
    }

    #if AVIF
    /// libavif stores the EXIF payload (after a four-byte offset) and the XMP packet as the
    /// file's `Exif` and `mime` items, byte for byte.
    @Test func anAVIFCarriesTheEXIFAndXMPItems() throws {
        let data = try ImageCodersManager.shared.encode(Self.image(), as: .avif, options: ImageEncodeOptions(copyright: Self.copyright))
        let exif = try #require(Self.copyright.exifPayload)
        let xmp = try #require(Self.copyright.xmpPacket)
        #expect(data.range(of: Data(exif)) != nil)
        #expect(data.range(of: Data(xmp)) != nil)
        #expect(data.range(of: Data("Exif".utf8)) != nil)
        let plain = try ImageCodersManager.shared.encode(Self.image(), as: .avif, options: ImageEncodeOptions())
        #expect(plain.range(of: Data("Ada Lovelace".utf8)) == nil)
    }
    #endif

    @Test func theEXIFPayloadIsATIFFDirectoryOfTheTwoTags() throws {
        let payload = try #require(ImageCopyright(copyright: "C", artist: "Artist name").exifPayload)
        #expect(Array(payload.prefix(8)) == [0x49, 0x49, 42, 0, 8, 0, 0, 0])
        #expect(payload[8] == 2 && payload[9] == 0, "two entries")
        // Artist (0x013B) first, then Copyright (0x8298), each ASCII.
        #expect(Array(payload[10..<14]) == [0x3B, 0x01, 2, 0])
        #expect(Array(payload[22..<26]) == [0x98, 0x82, 2, 0])
        #expect(ImageCopyright().exifPayload == nil && ImageCopyright().xmpPacket == nil)
        #expect(ImageCopyright(copyright: "", artist: String(repeating: "a", count: ImageCopyright.maximumFieldBytes + 1)).isEmpty)
    }

    @Test func aSourceStatingOtherMetadataYieldsOnlyTheCopyright() throws {
        // A JPEG whose EXIF holds Make and Copyright, and an XMP packet with a creator tool
        // beside dc:rights.
        var tiff: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 2]
        tiff += [0x01, 0x0F, 0, 2, 0, 0, 0, 6, 0, 0, 0, 38]  // Make, 6 bytes at 38
        tiff += [0x82, 0x98, 0, 2, 0, 0, 0, 4, 0x41, 0x42, 0x43, 0]  // Copyright "ABC", inline
        tiff += [0, 0, 0, 0] + Array("Canon\0".utf8)
        let xmp = Array(
            (#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description xmp:CreatorTool="Tool">"#
                + #"<dc:rights><rdf:Alt><rdf:li xml:lang="x-default">R &amp; D</rdf:li></rdf:Alt></dc:rights>"#
                + "</rdf:Description></rdf:RDF></x:xmpmeta>").utf8)
        let plain = [UInt8](try ImageCodersManager.shared.encode(Self.image(), as: .jpeg))
        var segments: [UInt8] = []
        for payload in [Array("Exif\0\0".utf8) + tiff, Array("http://ns.adobe.com/xap/1.0/\0".utf8) + xmp] {
            segments += [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        let source = Data(plain[..<2] + segments + plain[2...])
        #expect(ImageCopyright(readingContainer: source) == ImageCopyright(copyright: "ABC", rights: "R & D"))
    }
}
