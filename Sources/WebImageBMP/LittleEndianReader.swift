/// Reads little-endian integers from a byte buffer, returning `nil` past its end instead
/// of reading out of bounds.
struct LittleEndianReader {
    /// The bytes read from.
    let bytes: UnsafeRawBufferPointer

    /// The byte at `offset`, or `nil` outside the buffer.
    func uint8(at offset: Int) -> UInt8? {
        guard offset >= 0, offset < bytes.count else { return nil }
        return bytes[offset]
    }

    /// The 16-bit integer at `offset`, or `nil` when it does not fit in the buffer.
    func uint16(at offset: Int) -> UInt16? {
        guard offset >= 0, offset <= bytes.count - 2 else { return nil }
        return UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    /// The 32-bit integer at `offset`, or `nil` when it does not fit in the buffer.
    func uint32(at offset: Int) -> UInt32? {
        guard offset >= 0, offset <= bytes.count - 4 else { return nil }
        return UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// The signed 32-bit integer at `offset`, or `nil` when it does not fit in the buffer.
    func int32(at offset: Int) -> Int32? {
        uint32(at: offset).map { Int32(bitPattern: $0) }
    }
}
