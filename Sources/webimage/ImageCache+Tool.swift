import Foundation
import WebImage

extension ImageCache {
    /// Waits, off the cooperative pool, until the disk level's queued background work is done.
    func waitForDiskMaintenance() async {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .utility).async { [diskCache] in
                diskCache.waitForMaintenance()
                continuation.resume()
            }
        }
    }

    /// The disk level's entry count and bytes, counted now.
    func diskUsage() async -> (entries: Int, bytes: Int) {
        await withCheckedContinuation { continuation in
            calculateDiskSize { count, size in continuation.resume(returning: (entries: count, bytes: size)) }
        }
    }
}
