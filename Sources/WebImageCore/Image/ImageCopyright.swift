/// The authorship a picture states — EXIF's `Copyright` and `Artist` and XMP's `dc:rights` —
/// which an encoder writes into its output when ``ImageEncodeOptions/copyright`` carries it,
/// while every other piece of metadata stays out.
///
/// ``init(readingContainer:)`` reads it from JPEG, PNG and WebP files; ``exifPayload`` and
/// ``xmpPacket`` are what the coders embed.
public struct ImageCopyright: Sendable, Hashable {
    /// EXIF `Copyright` (tag 0x8298).
    public var copyright: String?
    /// EXIF `Artist` (tag 0x013B).
    public var artist: String?
    /// XMP `dc:rights`, its default-language text.
    public var rights: String?

    /// The longest text, in UTF-8 bytes, kept of each field: longer ones are left out, so
    /// that every field fits one JPEG segment together with the others.
    public static let maximumFieldBytes = 4096

    /// Authorship of the texts given; a text that is empty or over ``maximumFieldBytes`` is
    /// left out.
    public init(copyright: String? = nil, artist: String? = nil, rights: String? = nil) {
        self.copyright = Self.kept(copyright)
        self.artist = Self.kept(artist)
        self.rights = Self.kept(rights)
    }

    /// Whether the picture states no authorship at all.
    public var isEmpty: Bool { copyright == nil && artist == nil && rights == nil }

    /// The EXIF payload — a TIFF structure (little-endian) whose first directory holds
    /// `Artist` and `Copyright` alone — or `nil` when neither is set. It does not start with
    /// JPEG's `Exif\0\0` header.
    public var exifPayload: [UInt8]? {
        let entries = [(UInt16(0x013B), artist), (UInt16(0x8298), copyright)].compactMap { tag, text in
            text.map { (tag, Array($0.utf8) + [0]) }
        }
        guard !entries.isEmpty else { return nil }
        var bytes: [UInt8] = Array("II".utf8) + Self.littleEndian(UInt16(42)) + Self.littleEndian(UInt32(8))
        // The directory: its count, 12 bytes an entry, then the next directory's offset (none).
        var dataOffset = 8 + 2 + entries.count * 12 + 4
        var data: [UInt8] = []
        bytes += Self.littleEndian(UInt16(entries.count))
        for (tag, value) in entries {
            bytes += Self.littleEndian(tag) + Self.littleEndian(UInt16(2)) + Self.littleEndian(UInt32(value.count))
            if value.count <= 4 {
                bytes += value + [UInt8](repeating: 0, count: 4 - value.count)
            } else {
                bytes += Self.littleEndian(UInt32(dataOffset))
                data += value
                dataOffset += value.count
            }
        }
        return bytes + Self.littleEndian(UInt32(0)) + data
    }

    /// An XMP packet stating `dc:rights` alone, or `nil` when ``rights`` is not set.
    public var xmpPacket: [UInt8]? {
        guard let rights else { return nil }
        let escaped =
            rights
            .replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
        let packet =
            "<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>"
            + "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
            + "<rdf:Description rdf:about=\"\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\">"
            + "<dc:rights><rdf:Alt><rdf:li xml:lang=\"x-default\">\(escaped)</rdf:li></rdf:Alt></dc:rights>"
            + "</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end=\"r\"?>"
        return Array(packet.utf8)
    }

    /// `text` when it is neither empty nor over ``maximumFieldBytes``.
    static func kept(_ text: String?) -> String? {
        guard let text, !text.isEmpty, text.utf8.count <= maximumFieldBytes else { return nil }
        return text
    }

    private static func littleEndian(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }

    private static func littleEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> ($0 * 8)) & 0xFF) } }
}
