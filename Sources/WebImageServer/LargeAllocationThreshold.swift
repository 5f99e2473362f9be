#if canImport(Glibc)
import CMalloc
#endif

/// The size from which glibc's allocator maps a block of its own and gives it back to the
/// system when it is freed, set once when the server starts.
///
/// Left to itself, glibc raises that size each time a mapped block is freed, up to 32 MiB,
/// so after a few requests every decoded picture, resampling buffer and source body below
/// 32 MiB comes from the allocator's arenas and stays in the process once freed, one
/// arena's worth per thread that touched it. An image server frees such buffers after
/// every request. Fixed at 2 MiB, the fit benchmark's peak RSS was 94–102 MiB against
/// 111–112 MiB, for about 450 more page faults a cold request (1.45 µs each on the 2-core
/// VM: some 2 % of its CPU); at 1 MiB, 80–84 MiB for twice those faults; at 4 MiB,
/// 98–111 MiB (`Benchmarks/README.md`).
enum LargeAllocationThreshold {
    /// The threshold the server sets: 2 MiB.
    static let bytes = 2 << 20

    /// Fixes glibc's mmap threshold at ``bytes``, unless `environment` sets one
    /// (`MALLOC_MMAP_THRESHOLD_`, glibc's own variable), which is left in force.
    ///
    /// - Returns: The threshold set, or `nil` when the environment's stands or the C
    ///   library is not glibc.
    static func apply(environment: [String: String]) -> Int? {
        #if canImport(Glibc)
        guard environment["MALLOC_MMAP_THRESHOLD_"] == nil else { return nil }
        return mallopt(M_MMAP_THRESHOLD, Int32(bytes)) == 1 ? bytes : nil
        #else
        return nil
        #endif
    }
}
