/// Counts the scans (`SOS` segments) of a JPEG without decoding it, so that work that
/// reads every scan — the lossless transform — can be held to the decoder's scan limit
/// (`CJPEG_MAX_SCANS`) before it starts.
///
/// Marker segments are skipped by their length and entropy-coded data byte by byte up to
/// the next marker (`FF` followed by anything but a stuffed `00`, a fill `FF` or a restart
/// marker), as libjpeg reads them; every read is bounds-checked and the walk is linear in
/// the bytes.
package enum JPEGScanCounter {
    /// The number of scans in the JPEG in `bytes`, counted up to `limit + 1` at most.
    package static func scanCount(in bytes: UnsafeRawBufferPointer, upTo limit: Int) -> Int {
        var scans = 0
        var offset = 2  // after SOI
        while offset + 1 < bytes.count {
            guard bytes[offset] == 0xFF else {
                offset += 1  // entropy-coded data (or garbage, which libjpeg skips too)
                continue
            }
            let marker = bytes[offset + 1]
            switch marker {
            case 0xFF:
                offset += 1  // a fill byte before a marker
            case 0x00, 0x01, 0xD0...0xD8:
                offset += 2  // a stuffed zero, TEM, a restart marker or SOI: no length
            case 0xD9:
                return scans  // EOI
            default:
                guard offset + 3 < bytes.count else { return scans }
                let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
                if marker == 0xDA {
                    scans += 1
                    if scans > limit { return scans }
                }
                offset += 2 + max(2, length)
            }
        }
        return scans
    }
}
