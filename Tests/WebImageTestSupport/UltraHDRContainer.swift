import Foundation

/// An independent reading of an Ultra HDR JPEG's container, for tests: the MPF index's
/// entries and the metadata segments, parsed here without the coder's own reader.
package struct UltraHDRContainer {
    /// One MP entry: the picture's size and its offset in the file (already added to the
    /// MPF structure's start, except the primary's 0).
    package struct Entry: Sendable {
        package let size: Int
        package let fileOffset: Int
    }

    /// The MP entries, primary first.
    package let entries: [Entry]
    /// The primary's XMP packets (as text).
    package let primaryXMP: [String]
    /// Whether the primary has the ISO 21496-1 version packet.
    package let primaryHasISO: Bool

    /// Reads the container of `data`, or `nil` when its primary has no MPF segment.
    package init?(_ data: Data) {
        let bytes = [UInt8](data)
        var offset = 2
        var entries: [Entry] = []
        var xmp: [String] = []
        var iso = false
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            if marker == 0xDA || marker == 0xD9 { break }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let payload = Array(bytes[(offset + 4)..<min(bytes.count, offset + 2 + length)])
            if marker == 0xE1, payload.starts(with: Array("http://ns.adobe.com/xap/1.0/\0".utf8)) {
                xmp.append(String(decoding: payload.dropFirst(29), as: UTF8.self))
            }
            if marker == 0xE2, payload.starts(with: Array("urn:iso:std:iso:ts:21496:-1\0".utf8)) { iso = true }
            if marker == 0xE2, payload.starts(with: Array("MPF\0".utf8)) {
                let tiff = Array(payload.dropFirst(4))
                let tiffStart = offset + 8
                let big = tiff[0] == 0x4D
                func read(_ at: Int, _ count: Int) -> Int {
                    var value = 0
                    for index in 0..<count { value = value << 8 | Int(tiff[at + (big ? index : count - 1 - index)]) }
                    return value
                }
                let directory = read(4, 4)
                for field in 0..<read(directory, 2) {
                    let at = directory + 2 + field * 12
                    guard read(at, 2) == 0xB002 else { continue }
                    let count = read(at + 4, 4) / 16, start = read(at + 8, 4)
                    for index in 0..<count {
                        let entry = start + index * 16
                        let pictureOffset = read(entry + 8, 4)
                        entries.append(Entry(size: read(entry + 4, 4), fileOffset: pictureOffset == 0 ? 0 : tiffStart + pictureOffset))
                    }
                }
            }
            offset += 2 + length
        }
        guard !entries.isEmpty else { return nil }
        self.entries = entries
        self.primaryXMP = xmp
        self.primaryHasISO = iso
    }
}
