#if JXL
// Compiled only with the `JXL` package trait, so that a build without it never imports
// CJXL and needs no libjxl headers.
import CJXL
import Foundation

/// A libjxl memory manager that refuses any single allocation larger than a limit, so a
/// hostile file cannot make libjxl reserve memory past the decode options' byte budget
/// through the allocations it routes to its manager.
///
/// The manager reads the limit through its `opaque` pointer; the budget must outlive the
/// decoder it is given to.
final class JXLMemoryBudget {
    /// The largest single allocation, in bytes.
    private let limit: UnsafeMutablePointer<Int>

    /// A budget of `maxAllocation` bytes per allocation.
    init(maxAllocation: Int) {
        limit = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        limit.initialize(to: maxAllocation)
    }

    deinit {
        limit.deallocate()
    }

    /// The manager to pass to `JxlDecoderCreate`.
    var manager: JxlMemoryManager {
        JxlMemoryManager(
            opaque: UnsafeMutableRawPointer(limit),
            alloc: { opaque, size in
                guard let opaque, size <= opaque.assumingMemoryBound(to: Int.self).pointee else { return nil }
                return malloc(size)
            },
            free: { _, address in free(address) }
        )
    }
}
#endif
