extension JPEGMetadata {
    /// The `APP2` `ICC_PROFILE` chunks of a JPEG as they are met: each says its place
    /// (from 1) and the chunk count, and the profile is them joined in that order.
    struct ICCChunks {
        private var chunks: [Int: [UInt8]] = [:]
        private var declaredCount: Int?
        private var isConsistent = true

        /// Records chunk `sequence` of `count`.
        mutating func add(sequence: Int, count: Int, bytes: UnsafeRawBufferPointer) {
            guard sequence >= 1, sequence <= count, declaredCount ?? count == count, chunks[sequence] == nil else {
                isConsistent = false
                return
            }
            declaredCount = count
            chunks[sequence] = Array(bytes)
        }

        /// The chunks joined in order; `nil` when there were none, or some is missing or repeated.
        var profile: [UInt8]? {
            guard isConsistent, let count = declaredCount, chunks.count == count else { return nil }
            return (1...count).flatMap { chunks[$0] ?? [] }
        }
    }
}
