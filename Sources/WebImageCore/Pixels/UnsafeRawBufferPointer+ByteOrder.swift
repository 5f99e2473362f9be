extension UnsafeRawBufferPointer {
    /// The big-endian 32-bit integer at `offset` (the caller has checked the bounds).
    package func loadBigEndianUInt32(at offset: Int) -> UInt32 {
        UInt32(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// The big-endian 16-bit integer at `offset` (the caller has checked the bounds).
    package func loadBigEndianUInt16(at offset: Int) -> UInt16 {
        UInt16(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    /// The little-endian 32-bit integer at `offset` (the caller has checked the bounds).
    package func loadLittleEndianUInt32(at offset: Int) -> UInt32 {
        UInt32(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
}
