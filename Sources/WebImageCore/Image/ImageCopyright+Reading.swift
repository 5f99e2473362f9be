import Foundation

extension ImageCopyright {
    /// The authorship stated by the image file `data`: EXIF `Copyright` and `Artist` and XMP
    /// `dc:rights` from a JPEG's `APP1` segments, a PNG's `eXIf` and `iTXt`
    /// (`XML:com.adobe.xmp`) chunks or a WebP's `EXIF` and `XMP ` chunks; `nil` for another
    /// format, or a file that states none.
    ///
    /// Only the containers' structure is walked, every read bounds-checked; no pixel is
    /// decoded.
    public init?(readingContainer data: Data) {
        let found: (exif: [UInt8]?, xmp: [UInt8]?) = data.withUnsafeBytes { bytes in
            switch ImageFormat(sniffing: data) {
            case .jpeg: Self.jpegMetadata(bytes)
            case .png: Self.pngMetadata(bytes)
            case .webp: Self.webpMetadata(bytes)
            default: (nil, nil)
            }
        }
        var copyright = ImageCopyright()
        if let exif = found.exif {
            let texts = Self.exifTexts(exif)
            copyright = ImageCopyright(copyright: texts[0x8298], artist: texts[0x013B])
        }
        if let xmp = found.xmp { copyright.rights = Self.kept(Self.xmpRights(xmp)) }
        guard !copyright.isEmpty else { return nil }
        self = copyright
    }

    private static let exifHeader: [UInt8] = Array("Exif\0\0".utf8)
    private static let xmpHeader: [UInt8] = Array("http://ns.adobe.com/xap/1.0/\0".utf8)

    /// The EXIF (TIFF) and XMP payloads of a JPEG's `APP1` segments before its first scan.
    private static func jpegMetadata(_ bytes: UnsafeRawBufferPointer) -> (exif: [UInt8]?, xmp: [UInt8]?) {
        var exif: [UInt8]?
        var xmp: [UInt8]?
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            if marker == 0xFF {
                offset += 1
                continue
            }
            if marker == 0xDA || marker == 0xD9 { break }
            if marker == 0x01 || (0xD0...0xD8).contains(marker) {
                offset += 2
                continue
            }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, offset + 2 + length <= bytes.count else { break }
            let payload = bytes[(offset + 4)..<(offset + 2 + length)]
            if marker == 0xE1 {
                if exif == nil, payload.starts(with: exifHeader) { exif = Array(payload.dropFirst(exifHeader.count)) }
                if xmp == nil, payload.starts(with: xmpHeader) { xmp = Array(payload.dropFirst(xmpHeader.count)) }
            }
            offset += 2 + length
        }
        return (exif, xmp)
    }

    /// The payloads of a PNG's `eXIf` chunk and of its uncompressed `iTXt` chunk keyed
    /// `XML:com.adobe.xmp`.
    private static func pngMetadata(_ bytes: UnsafeRawBufferPointer) -> (exif: [UInt8]?, xmp: [UInt8]?) {
        var exif: [UInt8]?
        var xmp: [UInt8]?
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = (0..<4).reduce(0) { $0 << 8 | Int(bytes[offset + $1]) }
            guard length <= bytes.count - offset - 12 else { break }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let data = bytes[(offset + 8)..<(offset + 8 + length)]
            switch type {
            case "eXIf" where exif == nil:
                exif = Array(data)
            case "iTXt" where xmp == nil:
                // The keyword and its NUL, the compression flag (0: none) and method, then the
                // language tag and the translated keyword, each NUL-terminated, then the text.
                let keyword = Array("XML:com.adobe.xmp\0".utf8)
                guard data.starts(with: keyword), data.count > keyword.count + 2, data[data.startIndex + keyword.count] == 0 else { break }
                let fields = data.dropFirst(keyword.count + 2).split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
                guard fields.count == 3 else { break }
                xmp = Array(fields[2])
            case "IEND":
                return (exif, xmp)
            default:
                break
            }
            offset += 12 + length
        }
        return (exif, xmp)
    }

    /// The payloads of a WebP's `EXIF` and `XMP ` chunks.
    private static func webpMetadata(_ bytes: UnsafeRawBufferPointer) -> (exif: [UInt8]?, xmp: [UInt8]?) {
        var exif: [UInt8]?
        var xmp: [UInt8]?
        var offset = 12
        while offset + 8 <= bytes.count {
            let size = (0..<4).reduce(0) { $0 | Int(bytes[offset + 4 + $1]) << ($1 * 8) }
            guard size <= bytes.count - offset - 8 else { break }
            let fourCC = String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
            let data = bytes[(offset + 8)..<(offset + 8 + size)]
            if fourCC == "EXIF", exif == nil {
                // Some writers keep JPEG's header in front of the TIFF structure.
                exif = data.starts(with: exifHeader) ? Array(data.dropFirst(exifHeader.count)) : Array(data)
            }
            if fourCC == "XMP ", xmp == nil { xmp = Array(data) }
            offset += 8 + size + size % 2
        }
        return (exif, xmp)
    }

    /// The ASCII texts of the first directory of an EXIF (TIFF) payload, by tag; only
    /// `Artist` and `Copyright` are asked for.
    private static func exifTexts(_ tiff: [UInt8]) -> [UInt16: String] {
        guard tiff.count >= 8 else { return [:] }
        let isLittleEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): isLittleEndian = true
        case (0x4D, 0x4D): isLittleEndian = false
        default: return [:]
        }
        func integer(at offset: Int, size: Int) -> Int? {
            guard offset >= 0, offset + size <= tiff.count else { return nil }
            return (0..<size).reduce(0) { value, index in
                isLittleEndian ? value | Int(tiff[offset + index]) << (index * 8) : value << 8 | Int(tiff[offset + index])
            }
        }
        guard integer(at: 2, size: 2) == 42, let directory = integer(at: 4, size: 4), let count = integer(at: directory, size: 2) else {
            return [:]
        }
        var texts: [UInt16: String] = [:]
        for index in 0..<count {
            let entry = directory + 2 + index * 12
            guard let tag = integer(at: entry, size: 2), let type = integer(at: entry + 2, size: 2),
                let length = integer(at: entry + 4, size: 4)
            else { break }
            guard tag == 0x013B || tag == 0x8298, type == 2, length > 0 else { continue }
            let start = length <= 4 ? entry + 8 : integer(at: entry + 8, size: 4) ?? -1
            guard start >= 0, length <= tiff.count - start else { continue }
            var text = tiff[start..<(start + length)]
            while text.last == 0 { text = text.dropLast() }
            texts[UInt16(tag)] = String(decoding: text, as: UTF8.self)
        }
        return texts
    }

    /// The default-language text of `dc:rights` in an XMP packet, its XML entities read.
    private static func xmpRights(_ packet: [UInt8]) -> String? {
        let text = String(decoding: packet, as: UTF8.self)
        guard let rights = text.range(of: "<dc:rights"), let item = text.range(of: "<rdf:li", range: rights.upperBound..<text.endIndex),
            let open = text.range(of: ">", range: item.upperBound..<text.endIndex),
            let close = text.range(of: "</rdf:li>", range: open.upperBound..<text.endIndex)
        else { return nil }
        return String(text[open.upperBound..<close.lowerBound])
            .replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
