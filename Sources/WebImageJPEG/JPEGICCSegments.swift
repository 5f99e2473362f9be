import Foundation
import WebImageCore

/// Writes an ICC profile into a JPEG as `APP2` `ICC_PROFILE` segments, the layout of the
/// ICC specification's annex B: chunks of at most 65,519 bytes, each numbered from 1 with
/// the chunk count, placed right after the `SOI` marker and any `APP0` (JFIF) segment.
enum JPEGICCSegments {
    /// The largest chunk of profile one segment holds: a segment's 65,535 bytes less its
    /// length field and the 14 bytes of signature and numbering.
    static let maximumChunk = 65_519

    /// `jpeg` with `profile` inserted; `jpeg` unchanged when it does not start like a JPEG
    /// or the profile needs more than 255 segments.
    static func inserting(_ profile: ColorProfile, into jpeg: Data) -> Data {
        let bytes = [UInt8](jpeg)
        let chunkCount = (profile.data.count + maximumChunk - 1) / maximumChunk
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8, (1...255).contains(chunkCount) else { return jpeg }
        var insertAt = 2
        if bytes[2] == 0xFF, bytes[3] == 0xE0, bytes.count >= 6 {
            insertAt = min(bytes.count, 4 + (Int(bytes[4]) << 8 | Int(bytes[5])))
        }
        var segments: [UInt8] = []
        let profileBytes = [UInt8](profile.data)
        for index in 0..<chunkCount {
            let chunk = profileBytes[(index * maximumChunk)..<min(profileBytes.count, (index + 1) * maximumChunk)]
            let length = 2 + 14 + chunk.count
            segments += [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)]
            segments += Array("ICC_PROFILE\0".utf8) + [UInt8(index + 1), UInt8(chunkCount)]
            segments += chunk
        }
        return Data(bytes[..<insertAt] + segments + bytes[insertAt...])
    }
}
