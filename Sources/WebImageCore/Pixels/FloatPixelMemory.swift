#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Whole-image buffers for the pixel kernels: float pixels, and the integer rows of the
/// small-sigma blur. Every allocation is fallible: a buffer that cannot be had throws.
///
/// A 6-megapixel image takes 96 MB as floats; touched page by page, that costs the
/// kernel tens of thousands of page faults. Large buffers are therefore aligned to 2 MiB
/// and offered to the kernel for transparent huge pages, which fault 512 times less often.
package enum FloatPixelMemory {
    /// The size of a transparent huge page on x86-64 and arm64 Linux.
    private static let hugePage = 2 << 20

    /// The most memory one buffer may ask for: the machine's physical memory. A larger
    /// request could only be met by overcommitted pages the kernel would later fail to back.
    package static let largestBuffer: Int = {
        let pages = sysconf(Int32(_SC_PHYS_PAGES)), pageSize = sysconf(Int32(_SC_PAGESIZE))
        guard pages > 0, pageSize > 0 else { return Int.max }
        return pages.multipliedReportingOverflow(by: pageSize).overflow ? Int.max : pages * pageSize
    }()

    /// Uninitialised room for `count` float pixels; release it with ``deallocate(_:)``.
    ///
    /// Throws ``ImageError/Code/imageTooLarge`` when the room cannot be had: its size
    /// overflows, passes ``largestBuffer``, or the allocator refuses it. Running out is an
    /// error its caller answers, never a trap.
    package static func allocate(_ count: Int) throws(ImageError) -> UnsafeMutablePointer<SIMD4<Float>> {
        try allocate(count, of: SIMD4<Float>.self)
    }

    /// Uninitialised room for `count` values of `type` (the integer kernels' rows), with
    /// the same alignment and the same refusal as ``allocate(_:)``; release it with
    /// ``deallocate(_:)``.
    package static func allocate<Element>(_ count: Int, of type: Element.Type) throws(ImageError) -> UnsafeMutablePointer<Element> {
        let (bytes, overflow) = max(1, count).multipliedReportingOverflow(by: MemoryLayout<Element>.stride)
        guard !overflow, bytes <= largestBuffer else {
            throw ImageError(.imageTooLarge, "\(count) pixel values would take more than the machine's memory")
        }
        let large = bytes >= 4 * hugePage
        var memory: UnsafeMutableRawPointer?
        guard posix_memalign(&memory, large ? hugePage : 64, bytes) == 0, let memory else {
            throw ImageError(.imageTooLarge, "out of memory for \(count) pixel values")
        }
        #if os(Linux)
        if large { _ = madvise(memory, bytes, Int32(MADV_HUGEPAGE)) }
        #endif
        return memory.bindMemory(to: Element.self, capacity: max(1, count))
    }

    /// Releases a buffer from ``allocate(_:)`` or ``allocate(_:of:)``.
    package static func deallocate<Element>(_ pixels: UnsafeMutablePointer<Element>) {
        free(pixels)
    }
}
