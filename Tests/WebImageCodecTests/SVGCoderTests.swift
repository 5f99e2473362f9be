#if SVG
import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
@testable import WebImageSVG
import WebImageTestSupport

/// The SVG coder on documents written here: sizes, colours, thumbnails rendered at their
/// size, the limits, and the coder registry picking SVG by sniffing.
struct SVGCoderTests {
    let coder = SVGCoder()

    static func svg(_ attributes: String, _ body: String = "") -> Data {
        Data(#"<svg xmlns="http://www.w3.org/2000/svg" \#(attributes)>\#(body)</svg>"#.utf8)
    }

    /// The code of the error `body` throws; `nil` when it throws none.
    static func errorCode(_ body: () throws -> Image) -> ImageError.Code? {
        do {
            _ = try body()
            return nil
        } catch {
            return (error as? ImageError)?.code
        }
    }

    /// Red left half, blue right half, and a half-transparent green square.
    static let halves = svg(
        #"width="40" height="20""#,
        #"<rect width="20" height="20" fill="red"/><rect x="20" width="20" height="20" fill="blue"/>"#
            + #"<rect x="10" y="5" width="5" height="5" fill="lime" fill-opacity="0.5"/>"#
    )

    @Test func rendersTheDeclaredSizeAndColours() throws {
        let image = try coder.decode(Self.halves, options: ImageDecodeOptions())
        #expect(image.format == .svg)
        #expect(image.pixelSize == PixelSize(width: 40, height: 20))
        #expect(try coder.pixelSize(of: Self.halves) == PixelSize(width: 40, height: 20))
        #expect(image.bitmap.rgba8(x: 2, y: 2) == RGBA8(red: 255, green: 0, blue: 0, alpha: 255))
        #expect(image.bitmap.rgba8(x: 30, y: 15) == RGBA8(red: 0, green: 0, blue: 255, alpha: 255))
        // Half-transparent lime over red, composed by cairo: (128, 127, 0) opaque.
        let blended = image.bitmap.rgba8(x: 12, y: 7)
        #expect(abs(Int(blended.red) - 128) <= 1 && abs(Int(blended.green) - 127) <= 1 && blended.blue == 0 && blended.alpha == 255)
    }

    @Test func transparentPixelsComeOutWithStraightAlpha() throws {
        let data = Self.svg(#"width="4" height="4""#, #"<rect width="4" height="4" fill="rgb(255,128,0)" fill-opacity="0.25"/>"#)
        let pixel = try coder.decode(data, options: ImageDecodeOptions()).bitmap.rgba8(x: 1, y: 1)
        #expect(abs(Int(pixel.alpha) - 64) <= 1)
        #expect(pixel.red == 255 && abs(Int(pixel.green) - 128) <= 2 && pixel.blue == 0, "\(pixel)")
    }

    @Test func sizeComesFromUnitsThenViewBoxThenDefault() throws {
        #expect(try coder.pixelSize(of: Self.svg(#"width="1in" height="0.5in""#)) == PixelSize(width: 96, height: 48))
        #expect(try coder.pixelSize(of: Self.svg(#"viewBox="0 0 200 100""#)) == PixelSize(width: 200, height: 100))
        #expect(try coder.pixelSize(of: Self.svg(#"width="100%" viewBox="0 0 10 30""#)) == PixelSize(width: 10, height: 30))
        #expect(try coder.pixelSize(of: Self.svg("")) == PixelSize(width: 300, height: 150))
        // A huge viewBox alone gets a sane size: fitted inside 2048.
        #expect(try coder.pixelSize(of: Self.svg(#"viewBox="0 0 1e9 5e8""#)) == PixelSize(width: 2048, height: 1024))
    }

    /// A 1000-pixel document with a 1-pixel line at its 300-pixel thumbnail's column 150
    /// (the viewBox is 300 wide): drawn at 300 pixels the line fills exactly that column.
    /// The pixel limit is below the full size, so the thumbnail cannot have been drawn
    /// large first.
    @Test func thumbnailIsRenderedAtItsSizeNotShrunk() throws {
        let data = Self.svg(
            #"width="1000" height="1000" viewBox="0 0 300 300""#,
            #"<rect x="150" y="0" width="1" height="300" fill="black"/>"#
        )
        var options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 300, height: 300))
        options.maxPixelCount = 300 * 300
        let image = try coder.decode(data, options: options)
        #expect(image.pixelSize == PixelSize(width: 300, height: 300))
        for y in [0, 150, 299] {
            #expect(image.bitmap.rgba8(x: 150, y: y) == RGBA8(red: 0, green: 0, blue: 0, alpha: 255))
            #expect(image.bitmap.rgba8(x: 149, y: y).alpha == 0)
            #expect(image.bitmap.rgba8(x: 151, y: y).alpha == 0)
        }
        options.thumbnailPixelSize = nil
        #expect(Self.errorCode { try coder.decode(data, options: options) } == .imageTooLarge)
    }

    @Test func thumbnailScalesUpOnlyWhenAsked() throws {
        let data = Self.svg(#"viewBox="0 0 20 10""#, #"<circle cx="10" cy="5" r="5" fill="red"/>"#)
        var options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 300, height: 300))
        #expect(try coder.decode(data, options: options).pixelSize == PixelSize(width: 20, height: 10))
        options.coderOptions[SVGScalesUpKey.self] = true
        let large = try coder.decode(data, options: options)
        #expect(large.pixelSize == PixelSize(width: 300, height: 150))
        #expect(large.bitmap.rgba8(x: 150, y: 75) == RGBA8(red: 255, green: 0, blue: 0, alpha: 255))
        #expect(large.bitmap.rgba8(x: 50, y: 75).alpha == 0)
        options.preserveAspectRatio = false
        #expect(try coder.decode(data, options: options).pixelSize == PixelSize(width: 300, height: 300))
    }

    @Test func hugeDeclaredSizeIsRefusedWholeAndRenderedAsThumbnail() throws {
        let data = Self.svg(#"width="1e9" height="1e9" viewBox="0 0 1e9 1e9""#, #"<rect width="5e8" height="1e9" fill="red"/>"#)
        #expect(Self.errorCode { try coder.decode(data, options: ImageDecodeOptions()) } == .imageTooLarge)
        let thumbnail = try coder.decode(data, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 64, height: 64)))
        #expect(thumbnail.pixelSize == PixelSize(width: 64, height: 64))
        #expect(thumbnail.bitmap.rgba8(x: 10, y: 10) == RGBA8(red: 255, green: 0, blue: 0, alpha: 255))
        #expect(thumbnail.bitmap.rgba8(x: 50, y: 10).alpha == 0)
        // Within the pixel limit but beyond what cairo can allocate.
        #expect(Self.errorCode { try coder.decode(Self.svg(#"width="40000" height="1""#), options: ImageDecodeOptions()) } == .imageTooLarge)
    }

    @Test func malformedEmptyCompressedAndOversizedInputIsRefused() throws {
        #expect(Self.errorCode { try coder.decode(Data(), options: ImageDecodeOptions()) } == .emptyData)
        #expect(
            Self.errorCode {
                try coder.decode(Data(#"<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>"#.utf8), options: ImageDecodeOptions())
            } == .badImageData)
        #expect(Self.errorCode { try coder.decode(Data("<svg".utf8), options: ImageDecodeOptions()) } == .badImageData)
        let gzip = Data([0x1F, 0x8B, 0x08, 0x08, 0, 0, 0, 0, 0, 0]) + Data("<svg.svg".utf8)
        #expect(!coder.canDecode(gzip))
        #expect(Self.errorCode { try coder.decode(gzip, options: ImageDecodeOptions()) } == .badImageData)
        let padding = String(repeating: " ", count: SVGCoder.maximumByteCount)
        #expect(
            Self.errorCode {
                try coder.decode(Self.svg(#"width="1" height="1""#, padding), options: ImageDecodeOptions())
            } == .imageTooLarge)
    }

    /// librsvg 2.54 aborts the process on an `feTile` with an empty input region: such
    /// documents never reach it, nor documents whose encoding could hide the name.
    @Test func documentsThatCouldAbortLibrsvgAreRefused() throws {
        let emptyTile = Self.svg(
            #"viewBox="0 0 200 200""#,
            #"<filter id="f"><feFlood x="0" y="0" width="10" height="10"/><feOffset dx="5"/><feTile/></filter>"#
                + #"<rect x="40" y="40" width="120" height="120" filter="url(#f)"/>"#
        )
        #expect(Self.errorCode { try coder.decode(emptyTile, options: ImageDecodeOptions()) } == .badImageData)
        let utf16 = Data("\u{FEFF}".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }) + Self.halves
        #expect(Self.errorCode { try coder.decode(utf16, options: ImageDecodeOptions()) } == .badImageData)
        let utf7 = Data(#"<?xml version="1.0" encoding="UTF-7"?>"#.utf8) + Self.halves
        #expect(Self.errorCode { try coder.decode(utf7, options: ImageDecodeOptions()) } == .badImageData)
        let latin = Data(#"<?xml version="1.0" encoding="Windows-1251"?>"#.utf8) + Self.halves
        #expect(try coder.decode(latin, options: ImageDecodeOptions()).pixelSize == PixelSize(width: 40, height: 20))
    }

    @Test func registryPicksTheSVGCoderBySniffing() throws {
        let image = try ImageCodersManager.shared.decode(Self.halves, options: ImageDecodeOptions())
        #expect(image.format == .svg)
        #expect(image.pixelSize == PixelSize(width: 40, height: 20))
        #expect(ImageCodersManager.shared.decodableFormats.contains(.svg))
    }
}
#endif
