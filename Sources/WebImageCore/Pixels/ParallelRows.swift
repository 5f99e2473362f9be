import Dispatch
import Foundation

/// Splits work on the rows of an image over the machine's cores.
///
/// Pixel kernels run on the caller's thread; only images large enough to repay the
/// hand-off (``minimumParallelPixels``) are split, into one band of rows per core, with
/// `DispatchQueue.concurrentPerform`, never on Swift's cooperative pool.
package enum ParallelRows {
    /// Below this many pixels of work a kernel stays on one thread.
    package static let minimumParallelPixels = 1 << 18

    /// The number of bands a large image is split into: one per active core, at most 8.
    package static let bandCount = min(8, max(1, ProcessInfo.processInfo.activeProcessorCount))

    /// Calls `body` with consecutive ranges covering `0..<count`, in parallel when
    /// `pixelsPerItem × count` reaches ``minimumParallelPixels``. The ranges never
    /// overlap, so each call may write the rows of its range without locking.
    package static func forEachBand(of count: Int, pixelsPerItem: Int, _ body: (Range<Int>) -> Void) {
        forEachNumberedBand(of: count, pixelsPerItem: pixelsPerItem) { _, rows in body(rows) }
    }

    /// As ``forEachBand(of:pixelsPerItem:_:)``, also telling each call its band's number,
    /// below ``bandCount``, so that a band can work in scratch memory of its own that was
    /// allocated (and checked) before the split.
    package static func forEachNumberedBand(of count: Int, pixelsPerItem: Int, _ body: (Int, Range<Int>) -> Void) {
        guard count > 0 else { return }
        let bands = min(count, bandCount)
        if bands < 2 || count * pixelsPerItem < minimumParallelPixels {
            body(0, 0..<count)
            return
        }
        withoutActuallyEscaping(body) { body in
            let shared = UncheckedBandBody(body: body)
            DispatchQueue.concurrentPerform(iterations: bands) { band in
                shared.body(band, count * band / bands..<count * (band + 1) / bands)
            }
        }
    }
}

/// Carries a band body into `concurrentPerform`; the bands it is called with write
/// disjoint rows, so sharing it between threads is safe.
private struct UncheckedBandBody: @unchecked Sendable {
    let body: (Int, Range<Int>) -> Void
}
