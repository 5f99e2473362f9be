import WebImageCore
/// Walks the chunks of a PNG byte stream in order, checking every bound.
///
/// The reader never reads past the buffer: a length that runs off the end is reported
/// as truncation, and the 2³¹ − 1 length cap of the PNG specification is enforced.
package struct PNGChunkReader {
    /// The eight bytes every PNG starts with.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    private let stream: UnsafeRawBufferPointer
    private var offset: Int

    /// A reader positioned after the signature.
    ///
    /// - Throws: ``ImageError/Code/badImageData`` when the signature is missing.
    package init(_ stream: UnsafeRawBufferPointer) throws(ImageError) {
        guard PNGChunkReader.hasSignature(stream) else {
            throw ImageError(.badImageData, "the data does not start with the PNG signature")
        }
        self.stream = stream
        offset = PNGChunkReader.signature.count
    }

    /// Whether `stream` starts with the PNG signature.
    static func hasSignature(_ stream: UnsafeRawBufferPointer) -> Bool {
        stream.count >= signature.count && zip(stream, signature).allSatisfy { $0 == $1 }
    }

    /// Whether every byte has been read.
    var isAtEnd: Bool { offset >= stream.count }

    /// The next complete chunk, or `nil` at the end of the stream.
    ///
    /// - Throws: ``ImageError/Code/badImageData`` when the stream ends inside a chunk or a
    ///   length is out of range.
    package mutating func next() throws(ImageError) -> PNGChunk? {
        guard !isAtEnd else { return nil }
        guard let chunk = peek() else {
            throw ImageError(.badImageData, "the PNG data ends inside a chunk at byte \(offset)")
        }
        offset = chunk.bytes.upperBound
        return chunk
    }

    /// The part of a chunk the stream holds when it ends inside it: its type, where it
    /// starts and the data bytes present. `nil` unless the reader stopped at such a chunk.
    func truncatedChunk() -> (type: PNGChunkType, start: Int, availableData: Range<Int>)? {
        guard !isAtEnd, peek() == nil, stream.count - offset >= 8 else { return nil }
        let length = Int(stream.loadBigEndianUInt32(at: offset))
        let dataStart = offset + 8
        let type = PNGChunkType(rawValue: stream.loadBigEndianUInt32(at: offset + 4))
        return (type, offset, dataStart..<min(stream.count, dataStart + length))
    }

    private func peek() -> PNGChunk? {
        guard stream.count - offset >= 12 else { return nil }
        let length = stream.loadBigEndianUInt32(at: offset)
        guard length <= 0x7FFF_FFFF, stream.count - offset - 12 >= Int(length) else { return nil }
        let type = PNGChunkType(rawValue: stream.loadBigEndianUInt32(at: offset + 4))
        return PNGChunk(type: type, start: offset, data: (offset + 8)..<(offset + 8 + Int(length)))
    }
}
