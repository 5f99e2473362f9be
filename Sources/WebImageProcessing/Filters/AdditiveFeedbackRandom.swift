/// The pseudo-random numbers of the GNU C library's `random()` after `srandom(seed)`:
/// an additive feedback generator over 31 words (`r[i] = r[i−3] + r[i−31]`, modulo 2³²),
/// seeded by the Park–Miller generator, its first 310 results dropped, each result the
/// word shifted right by one. thumbor's `noise` filter draws from it, so that a seeded
/// noise here is thumbor's pixel for pixel.
struct AdditiveFeedbackRandom {
    /// The last 31 words.
    private var words: [UInt32]
    /// Where the next word is written (it replaces the word 31 places back): the 35th
    /// word of the sequence, `r[34] = r[3] + r[31]`, where `r[31]` is `r[0]`, goes in
    /// place 3.
    private var index = 3

    /// A generator seeded as `srandom(seed)` seeds the C library's (a seed of 0 is 1).
    init(seed: UInt32) {
        var words = [UInt32](repeating: 0, count: 31)
        var word = Int64(seed == 0 ? 1 : seed)
        words[0] = UInt32(truncatingIfNeeded: word)
        for position in 1..<31 {
            // 16807 × word modulo 2³¹ − 1, on the signed 32-bit value, as the C library has it.
            let signed = Int64(Int32(truncatingIfNeeded: word))
            var next = 16807 * (signed % 127_773) - 2836 * (signed / 127_773)
            if next < 0 { next += 2_147_483_647 }
            word = next
            words[position] = UInt32(truncatingIfNeeded: next)
        }
        self.words = words
        for _ in 0..<310 { _ = next() }
    }

    /// The next number, from 0 to 2³¹ − 1.
    mutating func next() -> Int {
        let back3 = (index + 28) % 31
        words[index] = words[index] &+ words[back3]
        let result = Int(words[index] >> 1)
        index = (index + 1) % 31
        return result
    }
}
