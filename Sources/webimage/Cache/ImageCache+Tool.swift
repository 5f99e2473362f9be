import Foundation
import WebImage

extension ImageCache {
    /// The disk level's entry count and bytes, counted now.
    func diskUsage() async -> (entries: Int, bytes: Int) {
        await withCheckedContinuation { continuation in
            calculateDiskSize { count, size in continuation.resume(returning: (entries: count, bytes: size)) }
        }
    }
}
