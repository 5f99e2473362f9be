import CPNG
import WebImageCore

/// Where one chunk lies in a PNG byte stream; positions are offsets from the stream's start.
package struct PNGChunk: Sendable {
    /// The chunk's type.
    package let type: PNGChunkType
    /// The offset of the chunk's length field: the first byte of the chunk.
    let start: Int
    /// The chunk's data, between its type and its CRC.
    package let data: Range<Int>

    /// The whole chunk, length field to CRC.
    var bytes: Range<Int> { start..<(data.upperBound + 4) }

    /// Whether the CRC stored after the data matches the chunk's type and data (zlib's
    /// CRC-32, many times faster than a table walk on a megabytes-long IDAT run).
    func hasValidChecksum(in stream: UnsafeRawBufferPointer) -> Bool {
        let base = stream.baseAddress!.assumingMemoryBound(to: Bytef.self)
        let typed = crc32(0, base.advanced(by: start + 4), 4)
        let crc = crc32(typed, base.advanced(by: data.lowerBound), uInt(data.count))
        return UInt32(crc) == stream.loadBigEndianUInt32(at: data.upperBound)
    }
}
