import CDeflate
import WebImageCore
/// The CRC-32 checksum that PNG chunks (and zlib, gzip, Ethernet) carry: reflected
/// polynomial 0xEDB88320, initial value and final XOR 0xFFFFFFFF.
///
/// A value type that folds bytes in one slice at a time, so a checksum can cover a
/// chunk's type and data without copying them together.
struct CRC32: Sendable {
    /// The checksum of everything fed so far.
    var value: UInt32 { ~state }

    private var state: UInt32 = 0xFFFF_FFFF

    /// A checksum of no bytes yet.
    init() {}

    /// Folds `bytes` into the checksum (libdeflate's CRC-32, which takes and gives the
    /// finished value, so the running state is its complement).
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        state = ~libdeflate_crc32(~state, base, bytes.count)
    }

    /// Folds the four bytes of `word`, most significant first (as PNG stores chunk types).
    mutating func update(bigEndian word: UInt32) {
        withUnsafeBytes(of: word.bigEndian) { update($0) }
    }

    /// The checksum of `bytes`.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }
}
