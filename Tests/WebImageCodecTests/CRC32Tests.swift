import Testing
@testable import WebImageCore
import WebImageCoders
@testable import WebImagePNG
import WebImageTestSupport

/// The CRC-32 that PNG chunks carry.
@Suite
struct CRC32Tests {
    @Test func matchesTheStandardCheckValue() {
        let digits = Array("123456789".utf8)
        #expect(digits.withUnsafeBytes(CRC32.checksum) == 0xCBF4_3926)
        #expect([UInt8]().withUnsafeBytes(CRC32.checksum) == 0)
    }

    @Test func updatesInPiecesLikeInOne() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 * 31) }
        var pieces = CRC32()
        bytes[..<300].withUnsafeBytes { pieces.update($0) }
        bytes[300...].withUnsafeBytes { pieces.update($0) }
        #expect(pieces.value == bytes.withUnsafeBytes(CRC32.checksum))
    }

    @Test func checksumsAChunkTypeAsPNGDoes() {
        var crc = CRC32()
        crc.update(bigEndian: PNGChunkType.end.rawValue)
        #expect(crc.value == 0xAE42_6082)
    }
}
