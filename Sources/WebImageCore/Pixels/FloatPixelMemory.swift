#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Whole-image buffers of float pixels for the kernels.
///
/// A 6-megapixel image takes 96 MB as floats; touched page by page, that costs the
/// kernel tens of thousands of page faults. Large buffers are therefore aligned to 2 MiB
/// and offered to the kernel for transparent huge pages, which fault 512 times less often.
package enum FloatPixelMemory {
    /// The size of a transparent huge page on x86-64 and arm64 Linux.
    private static let hugePage = 2 << 20

    /// Uninitialised room for `count` float pixels; release it with ``deallocate(_:)``.
    package static func allocate(_ count: Int) -> UnsafeMutablePointer<SIMD4<Float>> {
        let bytes = max(1, count) * MemoryLayout<SIMD4<Float>>.stride
        let large = bytes >= 4 * hugePage
        var memory: UnsafeMutableRawPointer?
        guard posix_memalign(&memory, large ? hugePage : 64, bytes) == 0, let memory else {
            fatalError("out of memory for \(count) float pixels")
        }
        #if os(Linux)
        if large { _ = madvise(memory, bytes, Int32(MADV_HUGEPAGE)) }
        #endif
        return memory.bindMemory(to: SIMD4<Float>.self, capacity: max(1, count))
    }

    /// Releases a buffer from ``allocate(_:)``.
    package static func deallocate(_ pixels: UnsafeMutablePointer<SIMD4<Float>>) {
        free(pixels)
    }
}
