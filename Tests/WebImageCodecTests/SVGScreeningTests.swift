#if SVG
import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
@testable import WebImagePNG
@testable import WebImageSVG
import WebImageTestSupport

/// The screen libxml2 runs on an SVG before librsvg sees it: each way of getting `feTile`,
/// another document or an unchecked image past it is refused with a typed error, by the
/// screen's own message (so librsvg never parsed the document), while a document that
/// embeds a small PNG still renders it.
///
/// Several attacks carry resvg's `feTile` with an empty input region, on which librsvg
/// 2.54 aborts the process: were one to reach librsvg, the test run would end there.
struct SVGScreeningTests {
    let coder = SVGCoder()

    /// The filter that makes librsvg 2.54 panic, its `feTile` element written as `tile`.
    static func emptyTileFilter(_ tile: String = "<feTile/>") -> String {
        #"<filter id="f"><feFlood x="0" y="0" width="10" height="10"/><feOffset dx="5"/>\#(tile)</filter>"#
            + #"<rect x="40" y="40" width="120" height="120" filter="url(#f)"/>"#
    }

    /// A 200×200 document with the empty-region `feTile`, whole, for nesting.
    static let abortingDocument =
        #"<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200">\#(emptyTileFilter())</svg>"#

    /// A 16×16 document with `body`, namespaces for XLink and XInclude declared.
    static func document(_ body: String, prolog: String = "") -> Data {
        Data(
            (prolog + #"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" "#
                + #"xmlns:xi="http://www.w3.org/2001/XInclude" width="16" height="16">\#(body)</svg>"#).utf8
        )
    }

    /// `bytes` as a base64 `data:` URL of `type`.
    static func base64URL(_ bytes: Data, type: String) -> String {
        "data:\(type);base64,\(bytes.base64EncodedString())"
    }

    /// `text` as a percent-encoded `data:` URL of `type`, every byte outside letters and
    /// digits escaped (so it fits in an attribute).
    static func percentURL(_ text: String, type: String) -> String {
        let escaped = text.utf8.map { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
                ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
        }
        return "data:\(type),\(escaped.joined())"
    }

    /// An opaque PNG of `width`×`height`, its left half red and its right half blue.
    static func halvesPNG(width: Int, height: Int) throws -> Data {
        let bitmap = Bitmap.painted(width, height) { x, _ in
            x < width / 2 ? RGBA8(red: 255, green: 0, blue: 0) : RGBA8(red: 0, green: 0, blue: 255)
        }
        return try PNGCoder().encode(Image(bitmap: bitmap), as: .png, options: ImageEncodeOptions())
    }

    /// A PNG whose `IHDR` (with a valid checksum) declares `width`×`height`, and nothing else.
    static func pngDeclaring(width: UInt32, height: UInt32) -> Data {
        var png = TestImages.pngHeader(width: width, height: height)
        let checksum = png[12...].withUnsafeBytes { CRC32.checksum($0) }
        png.append(contentsOf: withUnsafeBytes(of: checksum.bigEndian, Array.init))
        png.append(contentsOf: [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82])
        return png
    }

    /// The error `data` is refused with, `nil` when it renders.
    func refusal(_ data: Data, options: ImageDecodeOptions = ImageDecodeOptions()) -> ImageError? {
        do {
            _ = try coder.decode(data, options: options)
            return nil
        } catch {
            return error
        }
    }

    /// The attacks by name, each with the code and a part of the screen's message it must
    /// be refused with.
    static func attacks() throws -> [(name: String, document: Data, code: ImageError.Code, message: String)] {
        let nested = Data(abortingDocument.utf8)
        let cover = #"width="16" height="16""#
        let ppm = Data("P6 8 8 255\n".utf8) + Data(repeating: 200, count: 8 * 8 * 3)
        let xpm = #"/* XPM */ static char *x[] = { "2 2 1 1", "a c #FF0000", "aa", "aa" };"#
        let xbm = "#define x_width 8\n#define x_height 8\nstatic unsigned char x_bits[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };\n"
        let large = #"<svg xmlns="http://www.w3.org/2000/svg" width="12000" height="12000"/>"#
        let png = try halvesPNG(width: 4, height: 4)
        return [
            (
                "entity-spelled feTile",
                document(emptyTileFilter("&t;"), prolog: #"<!DOCTYPE svg [<!ENTITY t "&#60;fe&#84;ile/>">]>"#),
                .badImageData, "internal subset"
            ),
            (
                "entity expanded into markup",
                document(
                    #"&f;<rect x="40" y="40" width="120" height="120" filter="url(#f)"/>"#,
                    prolog: #"<!DOCTYPE svg [<!ENTITY f "<filter id='f'><feFlood width='10' height='10'/><feOffset dx='5'/><feTile/></filter>">]>"#),
                .badImageData, "internal subset"
            ),
            ("base64 SVG in <image>", document(#"<image href="\#(base64URL(nested, type: "image/svg+xml"))" \#(cover)/>"#), .badImageData, "nested SVG"),
            (
                "percent-encoded SVG in <image>",
                document(#"<image xlink:href="\#(percentURL(abortingDocument, type: "image/svg+xml"))" \#(cover)/>"#), .badImageData, "nested SVG"
            ),
            (
                "base64 SVG in <feImage>",
                document(#"<filter id="i"><feImage href="\#(base64URL(nested, type: "image/svg+xml"))"/></filter><rect \#(cover) filter="url(#i)"/>"#),
                .badImageData, "nested SVG"
            ),
            (
                "percent-encoded SVG in <feImage>",
                document(#"<filter id="i"><feImage xlink:href="\#(percentURL(abortingDocument, type: "image/svg+xml"))"/></filter><rect \#(cover) filter="url(#i)"/>"#),
                .badImageData, "nested SVG"
            ),
            ("SVG typed as PNG", document(#"<image href="\#(base64URL(nested, type: "image/png"))" \#(cover)/>"#), .badImageData, "nested SVG"),
            (
                "xi:include of data:",
                document(#"<xi:include href="\#(base64URL(nested, type: "image/svg+xml"))" parse="xml"/>"#), .badImageData, "XInclude"
            ),
            (
                "12000×12000 nested document",
                document(#"<image href="\#(percentURL(large, type: "image/svg+xml"))" \#(cover)/>"#), .badImageData, "nested SVG"
            ),
            ("8×8 PPM", document(#"<image href="\#(base64URL(ppm, type: "image/x-portable-pixmap"))" \#(cover)/>"#), .badImageData, "not a PNG, JPEG or GIF"),
            ("XPM", document(#"<image href="\#(percentURL(xpm, type: "image/x-xpixmap"))" \#(cover)/>"#), .badImageData, "not a PNG, JPEG or GIF"),
            ("XBM", document(#"<image href="\#(percentURL(xbm, type: "image/x-xbitmap"))" \#(cover)/>"#), .badImageData, "not a PNG, JPEG or GIF"),
            (
                "PNG declaring 60000×60000",
                document(#"<image href="\#(base64URL(pngDeclaring(width: 60000, height: 60000), type: "image/png"))" \#(cover)/>"#),
                .imageTooLarge, "too large"
            ),
            (
                "CSS @import of a data URL",
                document(#"<style>@import url("\#(percentURL("rect { fill: red }", type: "text/css"))");</style><rect \#(cover)/>"#),
                .badImageData, "@import"
            ),
            (
                "CSS @import spelled with an escape",
                document(#"<style>@\69mport "\#(percentURL("rect { fill: red }", type: "text/css"))";</style><rect \#(cover)/>"#),
                .badImageData, "@import"
            ),
            (
                "@import in a style attribute",
                document(#"<rect \#(cover) style="@import url(x.css); fill: blue"/>"#), .badImageData, "@import"
            ),
            (
                "url(data:) in CSS",
                document(#"<style>rect { filter: URL( 'DATA:image/svg+xml;base64,\#(nested.base64EncodedString())#f' ) }</style><rect \#(cover)/>"#),
                .badImageData, "url() of a data: URL"
            ),
            (
                "url(data:) in a presentation attribute",
                document(#"<rect \#(cover) fill="url(&quot;d&#9;ata:image/svg+xml;base64,\#(nested.base64EncodedString())#p&quot;)"/>"#),
                .badImageData, "url() of a data: URL"
            ),
            (
                "xml-stylesheet",
                document("<rect \(cover)/>", prolog: #"<?xml-stylesheet type="text/css" href="\#(percentURL("rect { fill: red }", type: "text/css"))"?>"#),
                .badImageData, "xml-stylesheet"
            ),
            ("data: on <use>", document(#"<use href="\#(base64URL(nested, type: "image/svg+xml"))#f"/>"#), .badImageData, "data: URL on <use>"),
            (
                "data: paint server",
                document(#"<linearGradient id="g" xlink:href=" data:image/svg+xml;base64,\#(nested.base64EncodedString())#g"/>"#),
                .badImageData, "data: URL on <linearGradient>"
            ),
            (
                "PNG with a fragment",
                document(#"<image href="\#(base64URL(png, type: "image/png"))#x" \#(cover)/>"#), .badImageData, "fragment"
            ),
            (
                "feConvolveMatrix of 21×21",
                document(
                    #"<filter id="c"><feConvolveMatrix order="21" kernelMatrix="\#(Array(repeating: "1", count: 441).joined(separator: " "))"/></filter>"#
                        + #"<rect \#(cover) filter="url(#c)"/>"#
                ),
                .badImageData, "feConvolveMatrix"
            ),
            (
                "feConvolveMatrix of 3×3 given 441 numbers without spaces",
                document(
                    #"<filter id="c"><feConvolveMatrix order="3" kernelMatrix="\#(String(repeating: "-1", count: 441))"/></filter>"#
                        + #"<rect \#(cover) filter="url(#c)"/>"#
                ),
                .badImageData, "feConvolveMatrix"
            ),
            ("feTile outside the SVG namespace", document(#"<feTile xmlns="urn:other"/>"#), .badImageData, "feTile"),
            (
                "feTurbulence of two million octaves",
                document(#"<filter id="t"><feTurbulence baseFrequency="0.05" numOctaves=" 2e6 "/></filter><rect \#(cover) filter="url(#t)"/>"#),
                .badImageData, "octaves"
            ),
        ]
    }

    @Test func attacksAreRefusedByTheScreen() throws {
        for attack in try Self.attacks() {
            let error = try #require(refusal(attack.document), "\(attack.name) rendered")
            #expect(error.code == attack.code, "\(attack.name): \(error)")
            #expect(error.message.contains(attack.message), "\(attack.name): \(error)")
            // The size query parses too, so it is screened as well.
            #expect(throws: ImageError.self, "\(attack.name)") { try coder.pixelSize(of: attack.document) }
        }
    }

    /// A small PNG embedded as base64, and the same as percent-encoded bytes, are drawn:
    /// its red and blue halves show in the output.
    @Test func embeddedPNGStillRenders() throws {
        let png = try Self.halvesPNG(width: 8, height: 8)
        let percentEncoded = "data:image/png," + png.map { String(format: "%%%02X", $0) }.joined()
        for url in [Self.base64URL(png, type: "image/png"), percentEncoded] {
            let image = try coder.decode(Self.document(#"<image href="\#(url)" x="4" y="4" width="8" height="8"/>"#), options: ImageDecodeOptions())
            #expect(image.pixelSize == PixelSize(width: 16, height: 16))
            #expect(image.bitmap.rgba8(x: 5, y: 8) == RGBA8(red: 255, green: 0, blue: 0))
            #expect(image.bitmap.rgba8(x: 10, y: 8) == RGBA8(red: 0, green: 0, blue: 255))
            #expect(image.bitmap.rgba8(x: 1, y: 1).alpha == 0)
        }
    }

    /// Each embedded image is held to the pixel limit, and so are all of them together.
    @Test func embeddedImagesTogetherAreHeldToThePixelLimit() throws {
        let url = Self.base64URL(try Self.halvesPNG(width: 60, height: 60), type: "image/png")
        let one = Self.document(#"<image href="\#(url)" width="16" height="16"/>"#)
        let two = Self.document(#"<image href="\#(url)" width="16" height="16"/><image href="\#(url)" width="8" height="8"/>"#)
        var options = ImageDecodeOptions()
        options.maxPixelCount = 5000
        #expect(try coder.decode(one, options: options).pixelSize == PixelSize(width: 16, height: 16))
        let error = try #require(refusal(two, options: options))
        #expect(error.code == .imageTooLarge && error.message.contains("together"), "\(error)")
        options.maxPixelCount = 3000
        #expect(refusal(one, options: options)?.code == .imageTooLarge)
    }

    /// What the screen leaves alone: `feTile` named only in text and comments, a DOCTYPE
    /// with no internal subset, fragment references, external references librsvg does
    /// not load without a base URL, and an `feConvolveMatrix` of the most numbers allowed.
    @Test func harmlessDocumentsStillRender() throws {
        let documents = [
            Self.document("<!-- feTile --><title>feTile</title><desc>&lt;feTile/&gt; &#x26; &amp;</desc>"),
            Self.document("<rect width='4' height='4'/>", prolog: #"<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">"#),
            Self.document(##"<defs><rect id="r" width="4" height="4"/></defs><use xlink:href="#r"/><image href="http://127.0.0.1:9/x.png"/>"##),
            Self.document(
                #"<filter id="c"><feConvolveMatrix order="20" kernelMatrix="\#(Array(repeating: "1", count: 400).joined(separator: ","))"/></filter>"#
                    + #"<rect width="4" height="4" filter="url(#c)"/>"#
            ),
            Self.document(#"<filter id="t"><feTurbulence numOctaves="24"/></filter><rect width="4" height="4" filter="url(#t)"/>"#),
            Self.document(#"<style>rect { fill: url(#g) } /* url(x) */</style><a href="https://example.com/"><rect width="4" height="4"/></a>"#),
        ]
        for data in documents {
            #expect(refusal(data) == nil, "\(String(decoding: data, as: UTF8.self))")
        }
    }
}
#endif
