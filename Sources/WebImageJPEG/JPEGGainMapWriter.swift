import Foundation
import WebImageCore

/// Writes an HDR gain map behind a primary JPEG as Ultra HDR does: the map as a JPEG of
/// its own carrying its metadata (its XMP `hdrgm` packet and ISO 21496-1 segment, as the
/// source had them), and in the primary an MPF index (CIPA DC-007) listing both pictures,
/// with the announcements the source made: XMP `hdrgm:Version` with a container directory
/// giving the map's length, and the ISO 21496-1 version packet.
enum JPEGGainMapWriter {
    private static let xmpSignature: [UInt8] = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
    /// The bytes of the MPF segment's TIFF structure before the MP entries: header, an
    /// index directory of three fields, and the next directory's offset.
    private static let indexBytes = 8 + 2 + 3 * 12 + 4
    /// An MP entry's bytes.
    private static let entryBytes = 16

    /// `primary` (a JPEG of `primarySize`) with `gainMap` written behind it, encoded at
    /// `quality` (1 to 100); `primary` unchanged when the map does not follow the
    /// primary's shape (a step that left it behind) or cannot be encoded.
    static func appending(_ gainMap: GainMap, to primary: Data, primarySize: PixelSize, quality: Int) -> Data {
        guard follows(gainMap.pixelSize, primarySize), primary.count >= 4, primary.starts(with: [0xFF, 0xD8]),
            var map = try? encoded(gainMap, quality: quality)
        else { return primary }
        let metadata = gainMap.metadata
        var mapSegments: [UInt8] = []
        if let xmp = metadata.gainMapXMP { mapSegments += segment(0xE1, xmpSignature + xmp) ?? [] }
        if let iso = metadata.gainMapISO { mapSegments += segment(0xE2, JPEGGainMapSegments.isoSignature + iso) ?? [] }
        map.insert(contentsOf: mapSegments, at: 2)

        let bytes = [UInt8](primary)
        var insertAt = 2
        if bytes[2] == 0xFF, bytes[3] == 0xE0, bytes.count >= 6 {
            insertAt = min(bytes.count, 4 + (Int(bytes[4]) << 8 | Int(bytes[5])))
        }
        var announcements: [UInt8] = []
        if metadata.primaryAnnouncesXMP || metadata.primaryISO == nil {
            announcements += segment(0xE1, xmpSignature + announcement(gainMapLength: map.count)) ?? []
        }
        if let version = metadata.primaryISO {
            announcements += segment(0xE2, JPEGGainMapSegments.isoSignature + version) ?? []
        }
        let indexLength = 2 + JPEGGainMapSegments.multiPictureSignature.count + indexBytes + 2 * entryBytes
        let primaryLength = bytes.count + announcements.count + 2 + indexLength
        // The MP entries count from the TIFF structure, after the marker, length and `MPF\0`.
        let tiffStart = insertAt + announcements.count + 4 + JPEGGainMapSegments.multiPictureSignature.count
        let index = multiPictureIndex(primaryLength: primaryLength, gainMapLength: map.count, gainMapOffset: primaryLength - tiffStart)
        guard let indexSegment = segment(0xE2, JPEGGainMapSegments.multiPictureSignature + index) else { return primary }
        var result = Data(capacity: primaryLength + map.count)
        result.append(contentsOf: bytes[..<insertAt])
        result.append(contentsOf: announcements)
        result.append(contentsOf: indexSegment)
        result.append(contentsOf: bytes[insertAt...])
        result.append(contentsOf: map)
        return result
    }

    /// Whether a map of `map` pixels still has the shape of a primary of `primary`: each
    /// side the other side's scale predicts, within 2 pixels and 3 %.
    static func follows(_ map: PixelSize, _ primary: PixelSize) -> Bool {
        guard map.width > 0, map.height > 0, primary.width > 0, primary.height > 0 else { return false }
        let predictedWidth = Double(primary.width) * Double(map.height) / Double(primary.height)
        return abs(predictedWidth - Double(map.width)) <= 2 + 0.03 * Double(map.width)
    }

    /// The map's pixels as a JPEG: grayscale for a one-channel map, else colour.
    private static func encoded(_ gainMap: GainMap, quality: Int) throws(ImageError) -> [UInt8] {
        let bitmap = try gainMap.bitmap.convertedToRGBA8()
        let gray = gainMap.metadata.channelCount == 1
        let compressor = try JPEGCompressor(
            size: bitmap.size, pixels: gray ? .gray : .rgba, quality: quality,
            lumaSampling: quality >= 90 || gray ? PixelSize(width: 1, height: 1) : PixelSize(width: 2, height: 2))
        if gray {
            let luminance = try [UInt8](unsafeUninitializedImageSized: bitmap.width, bitmap.height) { buffer, count in
                for index in 0..<buffer.count { buffer[index] = bitmap.pixels[index * 4] }
                count = buffer.count
            }
            let written = luminance.withUnsafeBytes { rows in
                Result { () throws(ImageError) in try compressor.write(rows: rows, bytesPerRow: bitmap.width) }
            }
            try written.get()
        } else {
            let written = bitmap.pixels.withUnsafeBytes { rows in
                Result { () throws(ImageError) in try compressor.write(rows: rows, bytesPerRow: bitmap.width * 4) }
            }
            try written.get()
        }
        return [UInt8](try compressor.finish())
    }

    /// An `APPn` segment of `payload`, or `nil` when it does not fit in one.
    private static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8]? {
        let length = payload.count + 2
        guard length <= 0xFFFF else { return nil }
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// The primary's XMP packet announcing the gain map: `hdrgm:Version` and a container
    /// directory whose second item is the map, `gainMapLength` bytes long.
    private static func announcement(gainMapLength: Int) -> [UInt8] {
        let packet = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="SwiftWebImage">
             <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              <rdf:Description rdf:about=""
                xmlns:hdrgm="http://ns.adobe.com/hdr-gain-map/1.0/"
                xmlns:Container="http://ns.google.com/photos/1.0/container/"
                xmlns:Item="http://ns.google.com/photos/1.0/container/item/"
               hdrgm:Version="1.0">
               <Container:Directory>
                <rdf:Seq>
                 <rdf:li rdf:parseType="Resource">
                  <Container:Item Item:Semantic="Primary" Item:Mime="image/jpeg"/>
                 </rdf:li>
                 <rdf:li rdf:parseType="Resource">
                  <Container:Item Item:Semantic="GainMap" Item:Mime="image/jpeg" Item:Length="\(gainMapLength)"/>
                 </rdf:li>
                </rdf:Seq>
               </Container:Directory>
              </rdf:Description>
             </rdf:RDF>
            </x:xmpmeta>
            """
        return Array(packet.utf8)
    }

    /// The MPF segment's TIFF structure (big-endian) for two pictures: the primary,
    /// `primaryLength` bytes from offset 0, and the gain map at `gainMapOffset` (from the
    /// structure's start).
    private static func multiPictureIndex(primaryLength: Int, gainMapLength: Int, gainMapOffset: Int) -> [UInt8] {
        var tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A]
        func append(_ value: Int, bytes: Int) {
            for shift in stride(from: (bytes - 1) * 8, through: 0, by: -8) { tiff.append(UInt8(truncatingIfNeeded: value >> shift)) }
        }
        append(8, bytes: 4)  // the index directory follows the header
        append(3, bytes: 2)
        // MP format version "0100", as 4 undefined bytes.
        append(0xB000, bytes: 2)
        append(7, bytes: 2)
        append(4, bytes: 4)
        tiff += Array("0100".utf8)
        // The number of pictures.
        append(0xB001, bytes: 2)
        append(4, bytes: 2)
        append(1, bytes: 4)
        append(2, bytes: 4)
        // The MP entries, after the directory.
        append(0xB002, bytes: 2)
        append(7, bytes: 2)
        append(2 * entryBytes, bytes: 4)
        append(indexBytes, bytes: 4)
        append(0, bytes: 4)  // no next directory
        // The primary: representative, baseline; then the gain map, with no type of its own.
        append(0x2003_0000, bytes: 4)
        append(primaryLength, bytes: 4)
        append(0, bytes: 4)
        append(0, bytes: 4)
        append(0, bytes: 4)
        append(gainMapLength, bytes: 4)
        append(gainMapOffset, bytes: 4)
        append(0, bytes: 4)
        return tiff
    }
}
