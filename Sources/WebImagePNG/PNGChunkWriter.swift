import WebImageCore
/// Builds a PNG byte stream chunk by chunk, computing each chunk's CRC.
package struct PNGChunkWriter {
    /// The bytes written so far, starting with the PNG signature.
    package private(set) var bytes: [UInt8]

    /// A writer holding only the signature, with room for about `capacity` bytes.
    package init(capacity: Int = 0) {
        bytes = PNGChunkReader.signature
        bytes.reserveCapacity(capacity)
    }

    /// Appends a chunk of `type` whose data is `data`.
    package mutating func append(_ type: PNGChunkType, _ data: UnsafeRawBufferPointer) {
        append(type, prefix: nil, data)
    }

    /// Appends a chunk of `type` whose data is `data`.
    package mutating func append(_ type: PNGChunkType, _ data: [UInt8]) {
        data.withUnsafeBytes { append(type, prefix: nil, $0) }
    }

    /// Appends a chunk of `type` whose data is the big-endian `prefix` followed by `data`
    /// (an fdAT chunk: sequence number, then image data).
    package mutating func append(_ type: PNGChunkType, prefix: UInt32?, _ data: UnsafeRawBufferPointer) {
        let length = data.count + (prefix == nil ? 0 : 4)
        var crc = CRC32()
        appendBigEndian(UInt32(length))
        appendBigEndian(type.rawValue)
        crc.update(bigEndian: type.rawValue)
        if let prefix {
            appendBigEndian(prefix)
            crc.update(bigEndian: prefix)
        }
        bytes.append(contentsOf: data)
        crc.update(data)
        appendBigEndian(crc.value)
    }

    /// Appends bytes that already form whole chunks (copied verbatim, CRC included).
    package mutating func appendVerbatim(_ chunks: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: chunks)
    }

    /// Appends the IEND chunk.
    package mutating func appendEnd() {
        append(.end, [])
    }

    private mutating func appendBigEndian(_ value: UInt32) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }
}
