#if SVG
import Foundation
import WebImageCore

/// Checks made on an SVG before librsvg sees it, for what librsvg 2.54 cannot be trusted
/// with.
///
/// librsvg is written in Rust, and a Rust panic inside it aborts the whole process instead
/// of returning an error. Debian 12's librsvg 2.54.7 panics (`assertion failed: width > 0
/// && height > 0` in `shared_surface.rs`) when `feTile` gets an empty input region, as in
/// resvg's `filters/feTile/empty-region.svg`, and `rsvg-convert` aborts on it too. And
/// librsvg loads `data:` URLs, which can hold a whole other document (another SVG, handed
/// to librsvg again without any screen, or a style sheet) or an image in any of
/// gdk-pixbuf's formats at any size.
///
/// So the document is read first with libxml2, and refused by the rules of
/// `SVGMarkupScreen`: no entities, XInclude or style-sheet instructions, no `feTile`
/// element or oversized `feConvolveMatrix` (another panic), no `@import` or
/// `url(data:…)` in CSS, and `data:` URLs only as PNG, JPEG or
/// GIF images within the decode options' pixel limits. Before that, the bytes must be in
/// an encoding where ASCII letters are their own bytes: documents in any other (UTF-16,
/// UTF-32, UTF-7, EBCDIC) are refused.
enum SVGScreening {
    /// Whether an XML declaration's `encoding` writes ASCII as ASCII: UTF-8, US-ASCII,
    /// ISO 8859 or a Windows 125x code page.
    static func isASCIICompatible(_ encoding: String) -> Bool {
        let name = encoding.lowercased()
        return ["utf-8", "utf8", "us-ascii", "ascii", "latin1"].contains(name)
            || (name.hasPrefix("iso-8859-") && name.dropFirst(9).allSatisfy(\.isNumber))
            || (name.hasPrefix("windows-125") && name.count == 12 && name.last!.isNumber)
    }

    /// Refuses `bytes` when they are not ASCII-compatible XML or break a rule of
    /// `SVGMarkupScreen`, whose embedded images are held to `options`' limits.
    ///
    /// - Throws: ``ImageError/Code/badImageData``, or ``ImageError/Code/imageTooLarge``
    ///   for embedded images over the limits.
    static func check(_ bytes: UnsafeRawBufferPointer, options: ImageDecodeOptions) throws(ImageError) {
        guard !bytes.contains(0) else {
            throw ImageError(.badImageData, "the SVG holds NUL bytes (UTF-16 or UTF-32 is not accepted)")
        }
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) {
            start += 1
        }
        guard start < bytes.count, bytes[start] == UInt8(ascii: "<") else {
            throw ImageError(.badImageData, "the SVG does not start with '<' in an ASCII-compatible encoding")
        }
        if let encoding = declaredEncoding(bytes[start...]), !isASCIICompatible(encoding) {
            throw ImageError(.badImageData, "the SVG's encoding \(encoding) is not accepted")
        }
        try SVGMarkupScreen.check(bytes, options: options)
    }

    /// The `encoding` of the XML declaration at the start of `bytes`, if it names one.
    private static func declaredEncoding(_ bytes: Slice<UnsafeRawBufferPointer>) -> String? {
        guard bytes.starts(with: Array("<?xml".utf8)), let end = bytes.firstIndex(of: UInt8(ascii: ">")) else { return nil }
        let declaration = String(decoding: bytes[..<end], as: UTF8.self)
        guard let match = declaration.firstMatch(of: /encoding\s*=\s*["']([^"']*)["']/) else { return nil }
        return String(match.1)
    }
}
#endif
