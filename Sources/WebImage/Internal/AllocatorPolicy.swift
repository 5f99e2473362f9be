#if canImport(Glibc)
import CMalloc
#endif

/// How glibc's allocator treats freed blocks in this process, set once at start by the
/// program that knows its work: a long-lived server gives large blocks back, a batch keeps
/// them for the next image.
///
/// Left to itself, glibc maps a block of its own from 128 KiB and, each time such a block is
/// freed, raises that threshold (up to 32 MiB) and the one above which it trims its heap.
/// Both choices below fix the thresholds, which also stops that adjustment. glibc's own
/// `MALLOC_MMAP_THRESHOLD_` and `MALLOC_TRIM_THRESHOLD_`, when set in the environment, are
/// left in force. Other C libraries are left alone.
package enum AllocatorPolicy: Sendable, Equatable {
    /// Blocks of the given size or more are mapped for each use and unmapped when freed: a server
    /// frees its decoded pictures and scratch after every request, and blocks kept in the
    /// allocator's arenas (one per thread that allocated) held the busiest moment's peak
    /// for ever. At 2 MiB, `webimage serve`'s fit benchmark peaked at 94–102 MiB against
    /// 111–124 MiB, for about 450 page faults more a cold request (some 2 % of its CPU;
    /// `Benchmarks/README.md`).
    case returnBlocks(from: Int)
    /// Freed blocks of up to 32 MiB are kept for reuse and the heap is trimmed only past
    /// 64 MiB free: a batch of loads decodes image after image of one size, and mapping,
    /// zeroing and unmapping each picture's buffer afresh cost `webimage fetch` a tenth of
    /// its CPU on the bulk load (`Benchmarks/README.md`).
    case keepFreedBlocks

    /// Sets the thresholds unless `environment` sets glibc's own.
    ///
    /// - Returns: Whether they were set: `false` when the environment's thresholds stand or the C
    ///   library is not glibc.
    @discardableResult
    package func apply(environment: [String: String]) -> Bool {
        #if canImport(Glibc)
        guard environment["MALLOC_MMAP_THRESHOLD_"] == nil, environment["MALLOC_TRIM_THRESHOLD_"] == nil else { return false }
        switch self {
        case .returnBlocks(let bytes):
            return mallopt(M_MMAP_THRESHOLD, Int32(clamping: bytes)) == 1
        case .keepFreedBlocks:
            return mallopt(M_MMAP_THRESHOLD, 32 << 20) == 1 && mallopt(M_TRIM_THRESHOLD, 64 << 20) == 1
        }
        #else
        return false
        #endif
    }
}
