import WebImageCore
/// What the marker segments in front of a JPEG's first scan say: the frame's declared
/// size and precision, the orientation (EXIF, else XMP), the ICC profile (`APP2`) and
/// whether an Adobe `APP14` segment is present.
///
/// Only segment headers are walked and only the `SOFn`, `APP1`, `APP2` and `APP14` segments are read,
/// every read bounds-checked, so the cost is a few jumps even for large files and no
/// input can make it read outside the data.
package struct JPEGMetadata: Sendable, Hashable {
    /// How the stored pixels must be turned to show upright.
    package var orientation: ImageOrientation = .up
    /// Whether an Adobe `APP14` segment is present: Adobe's CMYK JPEGs store inverted ink.
    package var hasAdobeMarker = false
    /// The size the frame header (`SOFn`) declares, if one was reached.
    package var frameSize: PixelSize?
    /// Bits per sample the frame header declares (8 for nearly every JPEG; 12 and 16 exist).
    package var precision: Int?
    /// The ICC profile, its `APP2` `ICC_PROFILE` chunks put together in sequence order;
    /// `nil` when there is none, or when its chunks are missing, repeated or disagree
    /// about their count.
    package var iccProfile: [UInt8]?
    /// The segments an HDR gain map is found and described by.
    package var gainMapSegments = JPEGGainMapSegments()

    private static let exifSignature: [UInt8] = Array("Exif\0\0".utf8)
    private static let xmpSignature: [UInt8] = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
    private static let adobeSignature: [UInt8] = Array("Adobe".utf8)
    private static let iccSignature: [UInt8] = Array("ICC_PROFILE\0".utf8)

    /// Reads the segments of the JPEG in `bytes` up to its first scan.
    package init(reading bytes: UnsafeRawBufferPointer) {
        var exifOrientation: Int?
        var xmpOrientation: Int?
        var iccChunks = ICCChunks()
        var offset = 2  // after SOI
        segments: while offset + 1 < bytes.count {
            guard bytes[offset] == 0xFF else { break }
            while offset + 1 < bytes.count, bytes[offset + 1] == 0xFF { offset += 1 }  // fill bytes
            guard offset + 1 < bytes.count else { break }
            let marker = bytes[offset + 1]
            offset += 2
            switch marker {
            case 0x01, 0xD0...0xD8:
                continue segments  // stand-alone markers carry no length
            case 0xD9, 0xDA:
                if marker == 0xDA { gainMapSegments.scanOffset = offset - 2 }
                break segments  // EOI or SOS: no more header segments
            default:
                break
            }
            guard offset + 2 <= bytes.count else { break }
            let length = Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
            guard length >= 2, offset + length <= bytes.count else { break }
            let payload = UnsafeRawBufferPointer(rebasing: bytes[(offset + 2)..<(offset + length)])
            gainMapSegments.read(marker: marker, payload: payload, at: offset + 2)
            switch marker {
            case 0xE1 where exifOrientation == nil && payload.starts(with: Self.exifSignature):
                exifOrientation = Self.exifOrientation(
                    tiff: UnsafeRawBufferPointer(rebasing: payload[Self.exifSignature.count...])
                )
            case 0xE1 where xmpOrientation == nil && payload.starts(with: Self.xmpSignature):
                xmpOrientation = Self.xmpOrientation(
                    UnsafeRawBufferPointer(rebasing: payload[Self.xmpSignature.count...])
                )
            case 0xE2 where payload.count > Self.iccSignature.count + 2 && payload.starts(with: Self.iccSignature):
                let header = Self.iccSignature.count
                iccChunks.add(
                    sequence: Int(payload[header]), count: Int(payload[header + 1]),
                    bytes: UnsafeRawBufferPointer(rebasing: payload[(header + 2)...]))
            case 0xEE where payload.starts(with: Self.adobeSignature):
                hasAdobeMarker = true
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC && payload.count >= 5:
                precision = Int(payload[0])
                frameSize = PixelSize(
                    width: Int(payload[3]) << 8 | Int(payload[4]),
                    height: Int(payload[1]) << 8 | Int(payload[2])
                )
            default:
                break
            }
            offset += length
        }
        iccProfile = iccChunks.profile
        if let value = exifOrientation ?? xmpOrientation {
            orientation = ImageOrientation(exifValue: value)
        }
    }
}
