/// SHA-1 (FIPS 180-4), only for thumbor's URL signatures (HMAC-SHA1, see
/// ``ThumborSignature``): thumbor signs with it, so a server answering thumbor's URLs must
/// compute it. It is checked against the standard's test vectors.
struct SHA1 {
    /// The length of a digest in bytes.
    static let digestByteCount = 20
    /// The length of one block of input in bytes.
    static let blockByteCount = 64

    /// The digest of `bytes`.
    static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var state: [UInt32] = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476, 0xc3d2_e1f0]
        var message = bytes
        let bitCount = UInt64(bytes.count) &* 8
        message.append(0x80)
        while message.count % blockByteCount != 56 { message.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { message.append(UInt8(truncatingIfNeeded: bitCount >> UInt64(shift))) }
        var words = [UInt32](repeating: 0, count: 80)
        for blockStart in stride(from: 0, to: message.count, by: blockByteCount) {
            for index in 0..<16 {
                let offset = blockStart + index * 4
                words[index] =
                    UInt32(message[offset]) << 24 | UInt32(message[offset + 1]) << 16 | UInt32(message[offset + 2]) << 8
                    | UInt32(message[offset + 3])
            }
            for index in 16..<80 {
                let mixed = words[index - 3] ^ words[index - 8] ^ words[index - 14] ^ words[index - 16]
                words[index] = mixed << 1 | mixed >> 31
            }
            var (a, b, c, d, e) = (state[0], state[1], state[2], state[3], state[4])
            for index in 0..<80 {
                let (f, k): (UInt32, UInt32)
                switch index {
                case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5a82_7999)
                case 20..<40: (f, k) = (b ^ c ^ d, 0x6ed9_eba1)
                case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8f1b_bcdc)
                default: (f, k) = (b ^ c ^ d, 0xca62_c1d6)
                }
                let temporary = (a << 5 | a >> 27) &+ f &+ e &+ k &+ words[index]
                (e, d, c, b, a) = (d, c, b << 30 | b >> 2, a, temporary)
            }
            state[0] = state[0] &+ a
            state[1] = state[1] &+ b
            state[2] = state[2] &+ c
            state[3] = state[3] &+ d
            state[4] = state[4] &+ e
        }
        return state.flatMap { word in [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> UInt32($0)) } }
    }
}
