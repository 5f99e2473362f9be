#if SVG
import WebImageCore

/// The `data:` URLs of an SVG's references, read as librsvg 2.54 reads them (the `url`
/// crate's parser, then the `data-url` crate's decoding), or refused where a reading
/// could differ from librsvg's.
///
/// librsvg resolves a reference without a base URL only when it is a `data:` URL, so these
/// are the only references whose contents it loads. Before its scheme is read, the URL
/// parser drops C0 controls and spaces from both ends of a reference and tabs and line
/// breaks from within it; ``normalized(_:)`` does the same, so that `" da\tta:"` is seen
/// as the `data:` URL librsvg sees.
enum SVGDataURL {
    /// `reference` with C0 controls and spaces trimmed from both ends and tabs, line feeds
    /// and carriage returns removed, as the URL parser reads it.
    static func normalized(_ reference: String) -> [UInt8] {
        let bytes = reference.utf8.filter { ![0x09, 0x0A, 0x0D].contains($0) }
        guard let first = bytes.firstIndex(where: { $0 > 0x20 }), let last = bytes.lastIndex(where: { $0 > 0x20 }) else { return [] }
        return Array(bytes[first...last])
    }

    /// Whether a ``normalized(_:)`` reference has the scheme `data` (in any case).
    static func isDataURL(_ reference: [UInt8]) -> Bool {
        reference.count >= 5 && reference[..<5].map { $0 | 0x20 } == Array("data:".utf8)
    }

    /// The bytes a ``normalized(_:)`` `data:` URL holds: its body, percent-decoded, and
    /// then base64-decoded when its media type ends in `;base64`.
    ///
    /// Refused, so that no reading of the URL can differ from librsvg's: a fragment (`#`,
    /// which makes librsvg read the URL as an element of another document), a missing
    /// comma, `base64` anywhere but at the end of the media type, a `%` not followed by
    /// two hex digits, and base64 that does not decode.
    ///
    /// - Throws: ``ImageError/Code/badImageData`` naming what was refused.
    static func payload(of url: [UInt8]) throws(ImageError) -> [UInt8] {
        guard !url.contains(UInt8(ascii: "#")) else {
            throw ImageError(.badImageData, "the SVG has a data: URL with a fragment (#), which librsvg reads as a nested document")
        }
        guard let comma = url.firstIndex(of: UInt8(ascii: ",")) else {
            throw ImageError(.badImageData, "the SVG has a data: URL without a comma")
        }
        let mediaType = String(decoding: url[5..<comma], as: UTF8.self).lowercased()
        let isBase64 = mediaType.hasSuffix(";base64")
        guard isBase64 || !mediaType.contains("base64") else {
            throw ImageError(.badImageData, "the SVG has a data: URL whose media type names base64 other than as ';base64' at its end")
        }
        let body = try percentDecoded(url[(comma + 1)...])
        return isBase64 ? try base64Decoded(body) : body
    }

    /// `bytes` with every `%` and two hex digits replaced by the byte they spell.
    private static func percentDecoded(_ bytes: ArraySlice<UInt8>) throws(ImageError) -> [UInt8] {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            guard bytes[index] == UInt8(ascii: "%") else {
                decoded.append(bytes[index])
                index += 1
                continue
            }
            guard index + 2 < bytes.endIndex, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else {
                throw ImageError(.badImageData, "the SVG has a data: URL with a '%' not followed by two hex digits")
            }
            decoded.append(high << 4 | low)
            index += 3
        }
        return decoded
    }

    /// The value of an ASCII hex digit.
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `text` decoded as the Fetch standard's forgiving base64: ASCII whitespace ignored,
    /// padding optional.
    private static func base64Decoded(_ text: [UInt8]) throws(ImageError) -> [UInt8] {
        var digits = text.filter { ![0x20, 0x09, 0x0A, 0x0C, 0x0D].contains($0) }
        if digits.count % 4 == 0 {
            for _ in 0..<2 where digits.last == UInt8(ascii: "=") {
                digits.removeLast()
            }
        }
        guard digits.count % 4 != 1 else {
            throw ImageError(.badImageData, "the SVG has a data: URL whose base64 has a stray character at its end")
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(digits.count / 4 * 3 + 2)
        var accumulator: UInt32 = 0
        var bits = 0
        for digit in digits {
            guard let value = base64Value(digit) else {
                throw ImageError(.badImageData, "the SVG has a data: URL whose base64 holds a character outside the alphabet")
            }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                decoded.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return decoded
    }

    /// The value of a base64 digit (`A`–`Z`, `a`–`z`, `0`–`9`, `+`, `/`).
    private static func base64Value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): digit - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): digit - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
#endif
