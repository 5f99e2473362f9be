import Foundation

/// The container format of encoded image data, as told by its first bytes.
///
/// Detection never trusts a file name or a URL: `ImageFormat(sniffing:)` reads the
/// signature at the start of the data, as SDWebImage's `sd_imageFormatForImageData` did,
/// and knows more formats than the library decodes so that callers can report them.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable, Codable {
    case jpeg
    case png
    case gif
    case tiff
    case webp
    case heic
    case heif
    case avif
    case bmp
    case ico
    case pdf
    case svg
    case jxl
    /// The data matched no known signature.
    case undefined

    /// Detects the format from the signature at the start of `data`.
    public init(sniffing data: Data) {
        self = data.withUnsafeBytes { ImageFormat.sniff(UnsafeRawBufferPointer($0)) }
    }

    /// The usual file name extension, without the dot (`nil` for ``undefined``).
    public var fileExtension: String? {
        switch self {
        case .jpeg: "jpg"
        case .undefined: nil
        default: rawValue
        }
    }

    /// The MIME type servers send for this format.
    public var mimeType: String? {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .gif: "image/gif"
        case .tiff: "image/tiff"
        case .webp: "image/webp"
        case .heic: "image/heic"
        case .heif: "image/heif"
        case .avif: "image/avif"
        case .bmp: "image/bmp"
        case .ico: "image/x-icon"
        case .pdf: "application/pdf"
        case .svg: "image/svg+xml"
        case .jxl: "image/jxl"
        case .undefined: nil
        }
    }

    /// The format named by a file extension such as `"jpeg"`, `"PNG"` or `".webp"`.
    public init?(fileExtension: String) {
        var name = fileExtension.lowercased()
        if name.hasPrefix(".") { name.removeFirst() }
        switch name {
        case "jpg", "jpeg", "jpe", "jfif": self = .jpeg
        case "png", "apng": self = .png
        case "tif", "tiff": self = .tiff
        case "heics": self = .heic
        case "svgz": self = .svg
        default:
            guard let format = ImageFormat(rawValue: name), format != .undefined else { return nil }
            self = format
        }
    }

    private static func sniff(_ bytes: UnsafeRawBufferPointer) -> ImageFormat {
        func starts(with signature: [UInt8], at offset: Int = 0) -> Bool {
            guard bytes.count >= offset + signature.count else { return false }
            for (index, byte) in signature.enumerated() where bytes[offset + index] != byte {
                return false
            }
            return true
        }
        guard let first = bytes.first else { return .undefined }
        switch first {
        case 0xFF where starts(with: [0xFF, 0xD8, 0xFF]):
            return .jpeg
        case 0x89 where starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]):
            return .png
        case 0x47 where starts(with: Array("GIF8".utf8)):
            return .gif
        case 0x49 where starts(with: [0x49, 0x49, 0x2A, 0x00]) || starts(with: [0x49, 0x49, 0x2B, 0x00]),
            0x4D where starts(with: [0x4D, 0x4D, 0x00, 0x2A]) || starts(with: [0x4D, 0x4D, 0x00, 0x2B]):
            return .tiff
        case 0x52 where starts(with: Array("RIFF".utf8)) && starts(with: Array("WEBP".utf8), at: 8):
            return .webp
        case 0x42 where starts(with: Array("BM".utf8)) && bytes.count >= 26:
            return .bmp
        case 0x42 where isBitmapArray(bytes):
            return .bmp
        case 0x00 where starts(with: [0x00, 0x00, 0x01, 0x00]) || starts(with: [0x00, 0x00, 0x02, 0x00]):
            return .ico
        case 0x00 where starts(with: [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]):
            return .jxl
        case 0xFF where starts(with: [0xFF, 0x0A]):
            return .jxl
        case 0x25 where starts(with: Array("%PDF".utf8)):
            return .pdf
        default:
            break
        }
        if let brandFormat = isoMediaFormat(bytes) {
            return brandFormat
        }
        if looksLikeSVG(bytes) {
            return .svg
        }
        return .undefined
    }

    /// Whether `bytes` start with an OS/2 bitmap array whose first entry holds a bitmap: a
    /// 14-byte `BA` header followed by a `BM` file header and an info header of a size BMP
    /// knows (12 to 124 bytes), all within the data.
    private static func isBitmapArray(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 14 + 14 + 12, bytes[0] == 0x42, bytes[1] == 0x41, bytes[14] == 0x42, bytes[15] == 0x4D else { return false }
        let infoSize = Int(bytes[28]) | Int(bytes[29]) << 8 | Int(bytes[30]) << 16 | Int(bytes[31]) << 24
        return (12...124).contains(infoSize) && 28 + infoSize <= bytes.count
    }

    /// Reads the `ftyp` box of an ISO base media file, which HEIC, HEIF and AVIF share:
    /// the major brand decides, as in SDWebImage; the compatible brands only when it is unknown.
    private static func isoMediaFormat(_ bytes: UnsafeRawBufferPointer) -> ImageFormat? {
        guard bytes.count >= 16,
            bytes[4] == 0x66, bytes[5] == 0x74, bytes[6] == 0x79, bytes[7] == 0x70  // "ftyp"
        else { return nil }
        let boxSize = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        let end = min(max(boxSize, 16), bytes.count)
        func brand(at offset: Int) -> String {
            String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
        }
        func format(ofBrand brand: String) -> ImageFormat? {
            switch brand {
            case "avif", "avis": .avif
            case "heic", "heix", "hevc", "hevx", "heim", "heis": .heic
            case "mif1", "msf1": .heif
            default: nil
            }
        }
        if let major = format(ofBrand: brand(at: 8)) {
            return major
        }
        var offset = 16
        while offset + 4 <= end {
            if let compatible = format(ofBrand: brand(at: offset)) {
                return compatible
            }
            offset += 4
        }
        return nil
    }

    /// SVG is text: an `<svg` element in the first kilobyte, as SDWebImage's later versions check.
    private static func looksLikeSVG(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let head = bytes.prefix(1024)
        guard head.contains(UInt8(ascii: "<")) else { return false }
        let text = String(decoding: head, as: UTF8.self).lowercased()
        return text.contains("<svg")
    }
}
