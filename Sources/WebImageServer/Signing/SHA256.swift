/// SHA-256 (FIPS 180-4), for the server's URL signatures and result digests.
///
/// Written here so that the server needs no second copy of BoringSSL (swift-crypto's)
/// beside the one swift-nio-ssl already builds; it is checked against the standard's test
/// vectors and RFC 4231's HMAC vectors.
struct SHA256 {
    /// The length of a digest in bytes.
    static let digestByteCount = 32
    /// The length of one block of input in bytes.
    static let blockByteCount = 64

    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    private var state: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]
    private var pending: [UInt8] = []
    private var totalByteCount: UInt64 = 0

    /// The digest of `bytes`.
    static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Adds `bytes` to the message.
    mutating func update(_ bytes: some Sequence<UInt8>) {
        let added: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        if added == nil {
            Array(bytes).withUnsafeBytes { update($0) }
        }
    }

    /// Adds `bytes` to the message: whole blocks straight from the buffer, the rest kept
    /// until the next update or the end.
    private mutating func update(_ bytes: UnsafeRawBufferPointer) {
        totalByteCount &+= UInt64(bytes.count)
        var rest = bytes[...]
        if !pending.isEmpty {
            let taken = rest.prefix(Self.blockByteCount - pending.count)
            pending += taken
            rest = rest.dropFirst(taken.count)
            guard pending.count == Self.blockByteCount else { return }
            compressPending()
        }
        while rest.count >= Self.blockByteCount {
            compress(UnsafeRawBufferPointer(rebasing: rest).baseAddress!)
            rest = rest.dropFirst(Self.blockByteCount)
        }
        pending += rest
    }

    /// The digest of everything added; the hasher is spent afterwards.
    mutating func finalize() -> [UInt8] {
        let bitCount = totalByteCount &* 8
        pending.append(0x80)
        if pending.count > Self.blockByteCount - 8 {
            pending += [UInt8](repeating: 0, count: Self.blockByteCount - pending.count)
            compressPending()
        }
        pending += [UInt8](repeating: 0, count: Self.blockByteCount - 8 - pending.count)
        for shift in stride(from: 56, through: 0, by: -8) {
            pending.append(UInt8(truncatingIfNeeded: bitCount >> UInt64(shift)))
        }
        compressPending()
        return state.flatMap { word in [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> UInt32($0)) } }
    }

    /// Compresses the full block held in `pending` and empties it.
    private mutating func compressPending() {
        let block = pending
        block.withUnsafeBytes { compress($0.baseAddress!) }
        pending.removeAll(keepingCapacity: true)
    }

    /// Runs the compression function over the 64-byte block at `block`.
    private mutating func compress(_ block: UnsafeRawPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
            for index in 0..<16 {
                schedule[index] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 4 * index, as: UInt32.self))
            }
            for index in 16..<64 {
                let earlier = schedule[index - 15]
                let recent = schedule[index - 2]
                let sigma0 = earlier.rotatedRight(7) ^ earlier.rotatedRight(18) ^ (earlier >> 3)
                let sigma1 = recent.rotatedRight(17) ^ recent.rotatedRight(19) ^ (recent >> 10)
                schedule[index] = schedule[index - 16] &+ sigma0 &+ schedule[index - 7] &+ sigma1
            }
            compress(schedule: UnsafeBufferPointer(schedule))
        }
    }

    /// The 64 rounds over a block's message schedule, added into the state.
    private mutating func compress(schedule: UnsafeBufferPointer<UInt32>) {
        var (a, b, c, d, e, f, g, h) = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
        for index in 0..<64 {
            let sum1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
            let choice = (e & f) ^ (~e & g)
            let first = h &+ sum1 &+ choice &+ Self.roundConstants[index] &+ schedule[index]
            let sum0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let second = sum0 &+ majority
            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ first, c, b, a, first &+ second)
        }
        for (index, value) in [a, b, c, d, e, f, g, h].enumerated() {
            state[index] = state[index] &+ value
        }
    }
}

extension UInt32 {
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 {
        (self >> count) | (self << (32 - count))
    }
}
