/// The segments in front of a JPEG's first scan that matter to an HDR gain map: the MPF
/// index (CIPA DC-007), the XMP packet's `hdrgm` description, the ISO 21496-1 `APP2`, the
/// number of colour components, and where the first scan starts.
///
/// Filled in by ``JPEGMetadata/init(reading:)`` for the primary image and for the gain map
/// image alike; every field is `nil` or empty when the segment is missing.
package struct JPEGGainMapSegments: Sendable, Hashable {
    /// Where the MPF segment's TIFF structure starts in the file (the MP entries' offsets
    /// count from there), or `nil` when there is no MPF segment.
    package var multiPictureOffset: Int?
    /// The MPF segment's TIFF structure (after `MPF\0`).
    package var multiPictureTIFF: [UInt8] = []
    /// The XMP packet (after its signature) when it holds an `hdrgm` description.
    package var gainMapXMP: [UInt8]?
    /// The ISO 21496-1 payload (after its name).
    package var iso: [UInt8]?
    /// The colour components the frame header declares (1 or 3 in a gain map).
    package var componentCount: Int?
    /// Where the first scan's `SOS` marker is, or `nil` when none was reached.
    package var scanOffset: Int?

    static let multiPictureSignature: [UInt8] = Array("MPF\0".utf8)
    static let isoSignature: [UInt8] = Array("urn:iso:std:iso:ts:21496:-1\0".utf8)
    static let xmpSignature: [UInt8] = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
    static let gainMapNamespace: [UInt8] = Array("http://ns.adobe.com/hdr-gain-map/1.0/".utf8)

    /// Notes the segment with `marker` whose `payload` starts at `offset` in the file.
    mutating func read(marker: UInt8, payload: UnsafeRawBufferPointer, at offset: Int) {
        switch marker {
        case 0xE1 where gainMapXMP == nil && payload.starts(with: Self.xmpSignature):
            let packet = UnsafeRawBufferPointer(rebasing: payload[Self.xmpSignature.count...])
            if JPEGMetadata.contains(Self.gainMapNamespace, in: packet) { gainMapXMP = Array(packet) }
        case 0xE2 where multiPictureOffset == nil && payload.starts(with: Self.multiPictureSignature):
            multiPictureOffset = offset + Self.multiPictureSignature.count
            multiPictureTIFF = Array(payload[Self.multiPictureSignature.count...])
        case 0xE2 where iso == nil && payload.starts(with: Self.isoSignature):
            iso = Array(payload[Self.isoSignature.count...])
        case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC && payload.count >= 6:
            componentCount = Int(payload[5])
        default:
            break
        }
    }
}
