/// PNG's five row filters (none, sub, up, average, Paeth) applied to one row, and the choice
/// among them that compressors make: the filter whose bytes, read as signed, have the
/// smallest sum of magnitudes.
enum PNGRowFilter {
    /// Filters the row at `current` (`count` bytes) against the row `above` (zeros above the
    /// first) with each of the five filters, into `candidates`: five rows of `count` bytes, in
    /// filter-type order. `distance` is the bytes of one pixel (at least 1).
    ///
    /// - Returns: The filter type whose candidate row has the smallest sum of magnitudes.
    static func choose(
        current: UnsafeRawPointer,
        above: UnsafeRawPointer,
        count: Int,
        distance: Int,
        candidates: UnsafeMutableRawPointer
    ) -> Int {
        let raw = current.assumingMemoryBound(to: UInt8.self)
        let up = above.assumingMemoryBound(to: UInt8.self)
        let none = candidates.assumingMemoryBound(to: UInt8.self)
        let sub = none + count
        let upward = sub + count
        let average = upward + count
        let paeth = average + count
        var sums = SIMD8<Int>.zero

        @inline(__always) func magnitude(_ byte: UInt8) -> Int {
            Int(Int8(bitPattern: byte).magnitude)
        }
        @inline(__always) func filter(at index: Int, left: UInt8, upperLeft: UInt8) {
            let byte = raw[index]
            let upper = up[index]
            let predicted = predictPaeth(left: left, upper: upper, upperLeft: upperLeft)
            let bytes = (
                byte, byte &- left, byte &- upper,
                byte &- UInt8(truncatingIfNeeded: (Int(left) + Int(upper)) >> 1), byte &- predicted
            )
            none[index] = bytes.0
            sub[index] = bytes.1
            upward[index] = bytes.2
            average[index] = bytes.3
            paeth[index] = bytes.4
            sums &+= SIMD8(magnitude(bytes.0), magnitude(bytes.1), magnitude(bytes.2), magnitude(bytes.3), magnitude(bytes.4), 0, 0, 0)
        }
        for index in 0..<min(distance, count) {
            filter(at: index, left: 0, upperLeft: 0)
        }
        var index = distance
        while index < count {
            filter(at: index, left: raw[index - distance], upperLeft: up[index - distance])
            index += 1
        }
        var best = 0
        for type in 1..<5 where sums[type] < sums[best] {
            best = type
        }
        return best
    }

    /// Paeth's predictor: of the left, upper and upper-left bytes, the one nearest to
    /// left + upper − upper-left (ties to left, then upper).
    @inline(__always)
    private static func predictPaeth(left: UInt8, upper: UInt8, upperLeft: UInt8) -> UInt8 {
        let estimate = Int(left) + Int(upper) - Int(upperLeft)
        let toLeft = abs(estimate - Int(left))
        let toUpper = abs(estimate - Int(upper))
        let toUpperLeft = abs(estimate - Int(upperLeft))
        if toLeft <= toUpper && toLeft <= toUpperLeft { return left }
        return toUpper <= toUpperLeft ? upper : upperLeft
    }
}
