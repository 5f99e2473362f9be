#if JXL
import Foundation

/// A JPEG rewritten with only the segments a recompression keeps: every segment the
/// decoder reads (tables, frame and scan headers, restart intervals) and the entropy-coded
/// data byte for byte, the `JFIF` `APP0` and Adobe `APP14` segments (they say how the
/// samples are coded), and the `ICC_PROFILE` `APP2` segments when asked; every other
/// application segment (EXIF, XMP, IPTC, MPF, …), every comment and anything after the
/// end-of-image marker (a gain map's JPEG, trailing bytes) is dropped.
///
/// The walk follows segment lengths and, inside a scan, the byte stuffing of the
/// entropy-coded data (`FF 00`, restart markers), so a marker's bytes inside a segment or
/// a scan are never taken for a marker; every read is bounds-checked.
struct JPEGMarkerFilter {
    /// The JPEG with the dropped segments removed, ending at its end-of-image marker.
    let jpeg: Data

    /// The signatures of the application segments kept, by marker.
    private static let jfif: [UInt8] = Array("JFIF\0".utf8)
    private static let adobe: [UInt8] = Array("Adobe".utf8)
    private static let icc: [UInt8] = Array("ICC_PROFILE\0".utf8)

    /// Filters the JPEG in `bytes`, keeping its ICC profile when `keepsColorProfile`.
    ///
    /// - Throws: ``JXLRecompressionError/notJPEG`` without a start-of-image marker,
    ///   ``JXLRecompressionError/malformedJPEG(_:)`` when the walk cannot reach the
    ///   end-of-image marker or passes `maxScans` scans.
    init(_ bytes: UnsafeRawBufferPointer, keepsColorProfile: Bool, maxScans: Int) throws(JXLRecompressionError) {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { throw .notJPEG }
        var output = Data([0xFF, 0xD8])
        output.reserveCapacity(bytes.count)
        var scans = 0
        var offset = 2
        while true {
            // Fill bytes (`FF` repeated) may come before a marker.
            guard offset + 1 < bytes.count, bytes[offset] == 0xFF else { throw .malformedJPEG("a marker is missing at byte \(offset)") }
            while offset + 1 < bytes.count, bytes[offset + 1] == 0xFF { offset += 1 }
            guard offset + 1 < bytes.count else { throw .malformedJPEG("the data ends inside a marker") }
            let marker = bytes[offset + 1]
            switch marker {
            case 0xD9:
                output.append(contentsOf: [0xFF, 0xD9])
                jpeg = output
                return
            case 0x01, 0xD0...0xD7:
                output.append(contentsOf: [0xFF, marker])
                offset += 2
                continue
            default:
                break
            }
            guard offset + 4 <= bytes.count else { throw .malformedJPEG("the data ends inside a segment header") }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let end = offset + 2 + length
            guard length >= 2, end <= bytes.count else { throw .malformedJPEG("a segment runs past the end of the data") }
            let payload = UnsafeRawBufferPointer(rebasing: bytes[(offset + 4)..<end])
            if Self.keeps(marker: marker, payload: payload, keepsColorProfile: keepsColorProfile) {
                output.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
            }
            offset = end
            guard marker == 0xDA else { continue }
            scans += 1
            guard scans <= maxScans else { throw .malformedJPEG("it has more than \(maxScans) scans") }
            let dataEnd = Self.endOfEntropyCodedData(bytes, from: offset)
            output.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[offset..<dataEnd]))
            offset = dataEnd
        }
    }

    /// Whether the segment of `marker` with `payload` is kept.
    private static func keeps(marker: UInt8, payload: UnsafeRawBufferPointer, keepsColorProfile: Bool) -> Bool {
        switch marker {
        case 0xE0: payload.starts(with: jfif)
        case 0xE2: keepsColorProfile && payload.starts(with: icc)
        case 0xEE: payload.starts(with: adobe)
        case 0xE1, 0xE3...0xED, 0xEF, 0xFE: false
        default: true
        }
    }

    /// The offset of the first marker after the entropy-coded data that starts at
    /// `start`: an `FF` followed by neither a stuffed `00` nor a restart marker (restart
    /// markers belong to the data; an `FF` of the data itself is always stuffed, so `FF FF`
    /// is a fill byte before a marker); the end of the data when there is none.
    private static func endOfEntropyCodedData(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return start }
        var offset = start
        while offset < bytes.count {
            guard let found = memchr(base + offset, 0xFF, bytes.count - offset) else { return bytes.count }
            let position = base.distance(to: UnsafeRawPointer(found))
            guard position + 1 < bytes.count else { return bytes.count }
            let next = bytes[position + 1]
            guard next == 0x00 || (0xD0...0xD7).contains(next) else { return position }
            offset = position + 2
        }
        return bytes.count
    }
}
#endif
