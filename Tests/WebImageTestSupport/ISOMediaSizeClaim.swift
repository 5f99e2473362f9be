import Foundation

/// Rewrites every `ispe` (image spatial extents) box of an ISO base media file — AVIF or
/// HEIF — to claim 100,000 × 100,000 pixels, for tests that such a header is refused
/// before anything is allocated.
package enum ISOMediaSizeClaim {
    /// `data` with its `ispe` boxes claiming 100,000 × 100,000 pixels, and how many it
    /// rewrote.
    package static func hundredThousandSquare(_ data: Data) -> (data: Data, patched: Int) {
        var data = data
        let ispe = Data("ispe".utf8)
        var searchStart = data.startIndex
        var patched = 0
        while let range = data.range(of: ispe, in: searchStart..<data.endIndex) {
            // The box's version and flags (4 bytes), then width and height, big-endian.
            let sizes = range.upperBound + 4
            for (offset, byte) in [UInt8(0x00), 0x01, 0x86, 0xA0, 0x00, 0x01, 0x86, 0xA0].enumerated() { data[sizes + offset] = byte }
            searchStart = range.upperBound
            patched += 1
        }
        return (data, patched)
    }
}
