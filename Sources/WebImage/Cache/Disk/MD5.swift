/// The MD5 digest (RFC 1321), used only to turn cache keys into file names.
///
/// Foundation on Linux has no MD5 and a cryptography package would cost a long build
/// for one call per cache lookup, so the library carries this small implementation.
/// MD5 is broken as a cryptographic hash; here it only spreads keys over names.
enum MD5 {
    /// The 16-byte digest of `bytes`.
    static func digest(of bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var state: (UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476)
        let fullBlocks = bytes.count / 64
        for block in 0..<fullBlocks {
            compress(&state, UnsafeRawBufferPointer(rebasing: bytes[(block * 64)..<(block * 64 + 64)]))
        }
        // The tail: the remaining bytes, a 0x80 marker, zeros, then the bit length.
        let remaining = bytes.count - fullBlocks * 64
        var tail = [UInt8](repeating: 0, count: remaining < 56 ? 64 : 128)
        for index in 0..<remaining {
            tail[index] = bytes[fullBlocks * 64 + index]
        }
        tail[remaining] = 0x80
        let bitLength = UInt64(bytes.count) &* 8
        for index in 0..<8 {
            tail[tail.count - 8 + index] = UInt8(truncatingIfNeeded: bitLength >> (8 * UInt64(index)))
        }
        tail.withUnsafeBytes { tailBytes in
            for offset in stride(from: 0, to: tailBytes.count, by: 64) {
                compress(&state, UnsafeRawBufferPointer(rebasing: tailBytes[offset..<(offset + 64)]))
            }
        }
        var digest = [UInt8]()
        digest.reserveCapacity(16)
        for word in [state.0, state.1, state.2, state.3] {
            for shift in stride(from: 0, to: 32, by: 8) {
                digest.append(UInt8(truncatingIfNeeded: word >> UInt32(shift)))
            }
        }
        return digest
    }

    /// The digest of `bytes` as 32 lowercase hexadecimal characters.
    static func hexDigest(of bytes: UnsafeRawBufferPointer) -> String {
        let digest = digest(of: bytes)
        let hexDigits = Array("0123456789abcdef".utf8)
        return String(unsafeUninitializedCapacity: 32) { output in
            for (index, byte) in digest.enumerated() {
                output[2 * index] = hexDigits[Int(byte >> 4)]
                output[2 * index + 1] = hexDigits[Int(byte & 0x0F)]
            }
            return 32
        }
    }

    /// The digest of the UTF-8 bytes of `string` as 32 lowercase hexadecimal characters.
    static func hexDigest(of string: String) -> String {
        var string = string
        return string.withUTF8 { hexDigest(of: UnsafeRawBufferPointer($0)) }
    }

    /// Per-round left-rotation amounts.
    private static let shifts: [UInt32] = [
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
        5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
        4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
        6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
    ]

    /// The sine-derived constants: floor(|sin(i + 1)| × 2³²).
    private static let constants: [UInt32] = [
        0xD76A_A478, 0xE8C7_B756, 0x2420_70DB, 0xC1BD_CEEE, 0xF57C_0FAF, 0x4787_C62A, 0xA830_4613, 0xFD46_9501,
        0x6980_98D8, 0x8B44_F7AF, 0xFFFF_5BB1, 0x895C_D7BE, 0x6B90_1122, 0xFD98_7193, 0xA679_438E, 0x49B4_0821,
        0xF61E_2562, 0xC040_B340, 0x265E_5A51, 0xE9B6_C7AA, 0xD62F_105D, 0x0244_1453, 0xD8A1_E681, 0xE7D3_FBC8,
        0x21E1_CDE6, 0xC337_07D6, 0xF4D5_0D87, 0x455A_14ED, 0xA9E3_E905, 0xFCEF_A3F8, 0x676F_02D9, 0x8D2A_4C8A,
        0xFFFA_3942, 0x8771_F681, 0x6D9D_6122, 0xFDE5_380C, 0xA4BE_EA44, 0x4BDE_CFA9, 0xF6BB_4B60, 0xBEBF_BC70,
        0x289B_7EC6, 0xEAA1_27FA, 0xD4EF_3085, 0x0488_1D05, 0xD9D4_D039, 0xE6DB_99E5, 0x1FA2_7CF8, 0xC4AC_5665,
        0xF429_2244, 0x432A_FF97, 0xAB94_23A7, 0xFC93_A039, 0x655B_59C3, 0x8F0C_CC92, 0xFFEF_F47D, 0x8584_5DD1,
        0x6FA8_7E4F, 0xFE2C_E6E0, 0xA301_4314, 0x4E08_11A1, 0xF753_7E82, 0xBD3A_F235, 0x2AD7_D2BB, 0xEB86_D391,
    ]

    /// Mixes one 64-byte block into the state.
    private static func compress(_ state: inout (UInt32, UInt32, UInt32, UInt32), _ block: UnsafeRawBufferPointer) {
        var a = state.0, b = state.1, c = state.2, d = state.3
        for round in 0..<64 {
            let mixed: UInt32
            let wordIndex: Int
            switch round {
            case 0..<16:
                mixed = (b & c) | (~b & d)
                wordIndex = round
            case 16..<32:
                mixed = (d & b) | (~d & c)
                wordIndex = (5 * round + 1) % 16
            case 32..<48:
                mixed = b ^ c ^ d
                wordIndex = (3 * round + 5) % 16
            default:
                mixed = c ^ (b | ~d)
                wordIndex = (7 * round) % 16
            }
            let sum = a &+ mixed &+ constants[round] &+ UInt32(littleEndian: block.loadUnaligned(fromByteOffset: wordIndex * 4, as: UInt32.self))
            a = d
            d = c
            c = b
            b = b &+ ((sum << shifts[round]) | (sum >> (32 - shifts[round])))
        }
        state.0 = state.0 &+ a
        state.1 = state.1 &+ b
        state.2 = state.2 &+ c
        state.3 = state.3 &+ d
    }
}
