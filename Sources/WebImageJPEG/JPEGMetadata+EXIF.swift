import WebImageCore
extension JPEGMetadata {
    /// The EXIF orientation tag.
    private static let orientationTag: UInt16 = 0x0112
    /// The TIFF field type SHORT (unsigned 16-bit).
    private static let shortType: UInt16 = 3

    /// The `Orientation` value (tag 0x0112) of IFD0 in the TIFF structure of an EXIF
    /// segment, or `nil` when the structure is damaged or has no such tag.
    static func exifOrientation(tiff: UnsafeRawBufferPointer) -> Int? {
        guard tiff.count >= 8 else { return nil }
        let littleEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): littleEndian = true  // "II"
        case (0x4D, 0x4D): littleEndian = false  // "MM"
        default: return nil
        }
        func uint16(at offset: Int) -> UInt16? {
            guard offset >= 0, offset + 2 <= tiff.count else { return nil }
            let (first, second) = (UInt16(tiff[offset]), UInt16(tiff[offset + 1]))
            return littleEndian ? first | second << 8 : first << 8 | second
        }
        func uint32(at offset: Int) -> UInt32? {
            guard let high = uint16(at: littleEndian ? offset + 2 : offset),
                let low = uint16(at: littleEndian ? offset : offset + 2)
            else { return nil }
            return UInt32(high) << 16 | UInt32(low)
        }
        guard uint16(at: 2) == 42, let ifdOffset = uint32(at: 4).map(Int.init),
            let entryCount = uint16(at: ifdOffset).map(Int.init)
        else { return nil }
        for index in 0..<entryCount {
            let entry = ifdOffset + 2 + index * 12
            guard let tag = uint16(at: entry), let type = uint16(at: entry + 2) else { return nil }
            if tag == orientationTag {
                guard type == shortType, let value = uint16(at: entry + 8) else { return nil }
                return Int(value)
            }
        }
        return nil
    }
}
