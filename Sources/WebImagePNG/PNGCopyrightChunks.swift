import Foundation
import WebImageCore

/// Writes an ``ImageCopyright`` into a PNG, right after its `IHDR` chunk: the EXIF payload
/// in an `eXIf` chunk and the XMP packet in an uncompressed `iTXt` chunk keyed
/// `XML:com.adobe.xmp`.
enum PNGCopyrightChunks {
    /// `png` with `copyright`'s chunks inserted; `png` unchanged when it does not start with
    /// the signature and an `IHDR` chunk.
    static func inserting(_ copyright: ImageCopyright, into png: Data) -> Data {
        let bytes = [UInt8](png)
        // The signature (8 bytes), then IHDR: length, type, 13 bytes of data, CRC.
        let headerEnd = 8 + 12 + 13
        guard bytes.count >= headerEnd, bytes.starts(with: PNGChunkReader.signature),
            bytes[12..<16].elementsEqual("IHDR".utf8)
        else { return png }
        var writer = PNGChunkWriter(capacity: bytes.count + 1024)
        bytes[8..<headerEnd].withUnsafeBytes { writer.appendVerbatim($0) }
        if let exif = copyright.exifPayload { writer.append(PNGChunkType("eXIf"), exif) }
        if let xmp = copyright.xmpPacket {
            // Keyword, NUL, no compression (flag and method 0), empty language and translated
            // keyword (each NUL-terminated), then the text.
            writer.append(PNGChunkType("iTXt"), Array("XML:com.adobe.xmp".utf8) + [0, 0, 0, 0, 0] + xmp)
        }
        bytes[headerEnd...].withUnsafeBytes { writer.appendVerbatim($0) }
        return Data(writer.bytes)
    }
}
