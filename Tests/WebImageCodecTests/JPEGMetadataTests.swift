import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
@testable import WebImageJPEG
import WebImageTestSupport

/// The marker-segment reader: EXIF and XMP orientation, Adobe marker, frame header, and
/// its refusal to read past damaged segments.
@Suite struct JPEGMetadataTests {
    let coder = JPEGCoder()

    /// A 32×16 picture with a different colour in each 16×8 quadrant.
    static let quadrants: Bitmap = {
        let colours: [[UInt8]] = [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255, 255, 0, 255]]
        var pixels = [UInt8]()
        for y in 0..<16 {
            for x in 0..<32 {
                pixels += colours[(y / 8) * 2 + x / 16]
            }
        }
        return Bitmap(width: 32, height: 16, pixels: pixels)
    }()

    /// `jpeg` with an `APP1` segment holding `payload` inserted after its SOI marker.
    static func inserting(app1 payload: [UInt8], into jpeg: Data) -> Data {
        let length = payload.count + 2
        return Data(jpeg.prefix(2)) + Data([0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload) + jpeg.dropFirst(2)
    }

    /// An EXIF payload whose IFD0 holds one Orientation entry.
    static func exif(orientation: UInt8, bigEndian: Bool) -> [UInt8] {
        let tiff: [UInt8] =
            bigEndian
            ? [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0, 0, 0, 0, 0]
            : [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, orientation, 0, 0, 0, 0, 0, 0, 0]
        return Array("Exif\0\0".utf8) + tiff
    }

    /// An XMP payload with `body` inside its description.
    static func xmp(_ body: String) -> [UInt8] {
        Array("http://ns.adobe.com/xap/1.0/\0".utf8)
            + Array(
                """
                <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description \(body)</rdf:Description></rdf:RDF></x:xmpmeta>
                """.utf8
            )
    }

    func metadata(_ data: Data) -> JPEGMetadata {
        data.withUnsafeBytes { JPEGMetadata(reading: $0) }
    }

    func plainJPEG() throws -> Data {
        try coder.encode(Image(bitmap: Self.quadrants), as: .jpeg, options: ImageEncodeOptions(quality: 1))
    }

    @Test func readsTheFrameHeader() throws {
        let found = metadata(try plainJPEG())
        #expect(found.frameSize == PixelSize(width: 32, height: 16))
        #expect(found.precision == 8)
        #expect(found.orientation == .up)
        #expect(!found.hasAdobeMarker)
    }

    @Test(arguments: ImageOrientation.allCases, [false, true])
    func appliesEXIFOrientation(orientation: ImageOrientation, bigEndian: Bool) throws {
        let plain = try plainJPEG()
        let upright = try coder.decode(plain, options: ImageDecodeOptions()).bitmap
        let tagged = Self.inserting(app1: Self.exif(orientation: UInt8(orientation.rawValue), bigEndian: bigEndian), into: plain)
        #expect(metadata(tagged).orientation == orientation)
        let image = try coder.decode(tagged, options: ImageDecodeOptions())
        #expect(image.orientation == orientation)
        #expect(try image.bitmap == upright.oriented(orientation))
        #expect(image.pixelSize == (orientation.swapsWidthAndHeight ? PixelSize(width: 16, height: 32) : PixelSize(width: 32, height: 16)))
    }

    @Test func treatsOutOfRangeValuesAsUp() throws {
        for value: UInt8 in [0, 9, 255] {
            let tagged = Self.inserting(app1: Self.exif(orientation: value, bigEndian: false), into: try plainJPEG())
            #expect(metadata(tagged).orientation == .up)
        }
    }

    @Test func fallsBackToXMPInBothForms() throws {
        let plain = try plainJPEG()
        let attribute = Self.inserting(app1: Self.xmp(#"xmlns:tiff="http://ns.adobe.com/tiff/1.0/" tiff:Orientation = "6">"#), into: plain)
        #expect(metadata(attribute).orientation == .right)
        let element = Self.inserting(app1: Self.xmp("><tiff:Orientation>\n 3 </tiff:Orientation>"), into: plain)
        #expect(metadata(element).orientation == .down)
        let singleQuoted = Self.inserting(app1: Self.xmp("tiff:Orientation='8'>"), into: plain)
        #expect(metadata(singleQuoted).orientation == .left)
        let image = try coder.decode(attribute, options: ImageDecodeOptions())
        #expect(image.orientation == .right)
        #expect(image.pixelSize == PixelSize(width: 16, height: 32))
    }

    @Test func prefersEXIFOverXMP() throws {
        let withXMP = Self.inserting(app1: Self.xmp(#"tiff:Orientation="6">"#), into: try plainJPEG())
        let both = Self.inserting(app1: Self.exif(orientation: 3, bigEndian: true), into: withXMP)
        #expect(metadata(both).orientation == .down)
    }

    @Test func survivesDamagedSegments() throws {
        let plain = try plainJPEG()
        let damaged: [[UInt8]] = [
            Array("Exif\0\0".utf8) + [0x49, 0x49, 0x2A, 0x00, 0xFF, 0xFF, 0xFF, 0x7F],  // IFD far away
            Array("Exif\0\0".utf8) + [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0xFF, 0xFF, 0x01],  // entries cut
            Array("Exif\0\0".utf8) + [0x4D, 0x4D, 0x00, 0x2B, 0, 0, 0, 8],  // bad magic
            Array("Exif\0\0".utf8) + [0x49, 0x49],  // cut header
            Array("Exif\0\0".utf8) + [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 4, 0, 1, 0, 0, 0, 6, 0, 0, 0],  // LONG type
            xmpPrefixOnly,
        ]
        for payload in damaged {
            let data = Self.inserting(app1: payload, into: plain)
            #expect(metadata(data).orientation == .up)
            #expect(try coder.decode(data, options: ImageDecodeOptions()).pixelSize == PixelSize(width: 32, height: 16))
        }
        // A segment length running past the end, and a cut marker, stop the walk quietly.
        #expect(metadata(Data([0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xF0, 0x45])).orientation == .up)
        #expect(metadata(Data([0xFF, 0xD8, 0xFF])).frameSize == nil)
        #expect(metadata(Data([0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x04, 0x08])).frameSize == nil)
    }

    private var xmpPrefixOnly: [UInt8] { Self.xmp("tiff:Orientation=\"") }
}
