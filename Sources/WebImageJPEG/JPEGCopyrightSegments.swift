import Foundation
import WebImageCore

/// Writes an ``ImageCopyright`` into a JPEG as `APP1` segments — the EXIF one (`Exif\0\0`
/// and a TIFF structure) and the XMP one — right after the `SOI` marker and any `APP0`
/// (JFIF) segment.
enum JPEGCopyrightSegments {
    /// `jpeg` with `copyright`'s segments inserted; `jpeg` unchanged when it does not start
    /// like a JPEG.
    static func inserting(_ copyright: ImageCopyright, into jpeg: Data) -> Data {
        let bytes = [UInt8](jpeg)
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return jpeg }
        var insertAt = 2
        if bytes[2] == 0xFF, bytes[3] == 0xE0, bytes.count >= 6 {
            insertAt = min(bytes.count, 4 + (Int(bytes[4]) << 8 | Int(bytes[5])))
        }
        var segments: [UInt8] = []
        let payloads = [
            copyright.exifPayload.map { Array("Exif\0\0".utf8) + $0 },
            copyright.xmpPacket.map { Array("http://ns.adobe.com/xap/1.0/\0".utf8) + $0 },
        ]
        // ``ImageCopyright/maximumFieldBytes`` keeps every payload far under a segment's
        // 65,533 bytes.
        for payload in payloads.compactMap(\.self) {
            let length = 2 + payload.count
            segments += [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        }
        return Data(bytes[..<insertAt] + segments + bytes[insertAt...])
    }
}
