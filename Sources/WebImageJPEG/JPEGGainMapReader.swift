import WebImageCore

/// Finds and describes the HDR gain map behind a primary JPEG (Ultra HDR, ISO 21496-1):
/// a second JPEG listed in the primary's MPF index, described by its own XMP `hdrgm`
/// packet or ISO 21496-1 segment.
///
/// Writers get the MPF offsets wrong (a segment added after the index was written moves
/// the map), so an offset that does not land on a JPEG's start falls back to the JPEG right
/// after the primary's end (`EOI`). Everything is bounds-checked: damaged data gives no
/// gain map, never an error.
enum JPEGGainMapReader {
    /// Where the gain map's JPEG starts in `jpeg`, whose header segments are `primary`, or
    /// `nil` when there is no MPF index or neither the index nor the primary's end leads
    /// to a JPEG.
    static func gainMapOffset(in jpeg: UnsafeRawBufferPointer, primary: JPEGGainMapSegments) -> Int? {
        guard let indexOffset = primary.multiPictureOffset else { return nil }
        if let listed = listedOffset(in: primary.multiPictureTIFF) {
            let (start, overflow) = indexOffset.addingReportingOverflow(listed)
            if !overflow, startsJPEG(jpeg, at: start) { return start }
        }
        guard var index = primary.scanOffset else { return nil }
        // Entropy-coded data never holds FF D9: the first one followed by FF D8 ends the
        // primary and starts the next picture.
        while index + 3 < jpeg.count {
            if jpeg[index] == 0xFF, jpeg[index + 1] == 0xD9, startsJPEG(jpeg, at: index + 2) { return index + 2 }
            index += 1
        }
        return nil
    }

    /// The offset, from the MPF TIFF structure's start, of the first picture after the
    /// primary that the MP entries list, or `nil` when the structure is damaged.
    static func listedOffset(in tiff: [UInt8]) -> Int? {
        guard tiff.count >= 8 else { return nil }
        let bigEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x4D, 0x4D): bigEndian = true
        case (0x49, 0x49): bigEndian = false
        default: return nil
        }
        func number(_ offset: Int, _ size: Int) -> Int? {
            guard offset >= 0, size <= tiff.count, offset <= tiff.count - size else { return nil }
            var value = 0
            for index in 0..<size {
                let byte = Int(tiff[offset + (bigEndian ? index : size - 1 - index)])
                value = value << 8 | byte
            }
            return value
        }
        guard number(2, 2) == 42, let directory = number(4, 4), let count = number(directory, 2) else { return nil }
        for entry in 0..<min(count, 64) {
            let field = directory + 2 + entry * 12
            guard let tag = number(field, 2), tag == 0xB002 else { continue }
            guard let bytes = number(field + 4, 4), let entries = number(field + 8, 4) else { return nil }
            // Each MP entry is 16 bytes: attribute, size, offset, two dependent images.
            for picture in 1..<max(1, bytes / 16) {
                if let offset = number(entries + picture * 16 + 8, 4), offset > 0 { return offset }
            }
            return nil
        }
        return nil
    }

    /// The gain map's metadata from the primary's segments and the map's own, or `nil`
    /// when the map describes itself neither in XMP `hdrgm` nor in ISO 21496-1 (Apple's
    /// own gain maps, for one, are not Ultra HDR).
    static func metadata(primary: JPEGGainMapSegments, gainMap: JPEGGainMapSegments) -> GainMapMetadata? {
        let iso = gainMap.iso.flatMap { $0.count > 5 ? $0 : nil }
        guard gainMap.gainMapXMP != nil || iso != nil else { return nil }
        let isoFields = iso.flatMap(isoHeadroom)
        let headroom = gainMap.gainMapXMP.flatMap { xmp in xmp.withUnsafeBytes { JPEGMetadata.xmpNumber("hdrgm:HDRCapacityMax", in: $0) } }
        return GainMapMetadata(
            gainMapXMP: gainMap.gainMapXMP, gainMapISO: iso, primaryISO: primary.iso,
            primaryAnnouncesXMP: primary.gainMapXMP != nil,
            channelCount: isoFields?.channels ?? (gainMap.componentCount == 3 ? 3 : 1),
            headroom: headroom ?? isoFields?.headroom)
    }

    /// The channel count and the alternate (HDR) headroom, in stops, of ISO 21496-1
    /// metadata; `nil` when it is too short or divides by zero.
    static func isoHeadroom(_ iso: [UInt8]) -> (channels: Int, headroom: Double)? {
        func number(_ offset: Int) -> Int? {
            guard offset + 4 <= iso.count else { return nil }
            return Int(iso[offset]) << 24 | Int(iso[offset + 1]) << 16 | Int(iso[offset + 2]) << 8 | Int(iso[offset + 3])
        }
        // 2 bytes of minimum version, 2 of writer version, then the flags.
        guard iso.count >= 5 else { return nil }
        let flags = iso[4]
        let channels = flags & 0x80 != 0 ? 3 : 1
        let numerator: Int?, denominator: Int?
        if flags & 0x08 != 0 {
            (numerator, denominator) = (number(13), number(5))  // a common denominator, then base and alternate
        } else {
            (numerator, denominator) = (number(13), number(17))  // base n/d, then alternate n/d
        }
        guard let numerator, let denominator, denominator > 0 else { return nil }
        return (channels, Double(numerator) / Double(denominator))
    }

    /// Whether `jpeg` holds a JPEG start (`FF D8 FF`) at `offset`.
    private static func startsJPEG(_ jpeg: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        offset >= 0 && offset <= jpeg.count - 3 && jpeg[offset] == 0xFF && jpeg[offset + 1] == 0xD8 && jpeg[offset + 2] == 0xFF
    }
}
