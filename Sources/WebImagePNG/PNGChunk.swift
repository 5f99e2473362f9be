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

    /// Whether the CRC stored after the data matches the chunk's type and data.
    func hasValidChecksum(in stream: UnsafeRawBufferPointer) -> Bool {
        var crc = CRC32()
        crc.update(bigEndian: type.rawValue)
        crc.update(UnsafeRawBufferPointer(rebasing: stream[data]))
        return crc.value == stream.loadBigEndianUInt32(at: data.upperBound)
    }
}
