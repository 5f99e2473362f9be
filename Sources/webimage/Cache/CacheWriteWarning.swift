import Foundation
import NIOConcurrencyHelpers
import WebImage

/// Warns on standard error, once per cache folder, that the cache cannot write: the
/// images still load, but they are not kept.
final class CacheWriteWarning: Sendable {
    /// The warnings of this process, so that each folder is named once however many
    /// caches use it.
    static let shared = CacheWriteWarning()

    private let warnedFolders = NIOLockedValueBox<Set<String>>([])

    /// Reports the write failures of `cache`'s disk level from now on.
    func watch(_ cache: ImageCache) {
        cache.diskCache?.writeFailureHandler = { [self] failure in report(failure) }
    }

    private func report(_ failure: DiskCacheWriteFailure) {
        let folder = failure.directory.path
        guard warnedFolders.withLockedValue({ $0.insert(folder).inserted }) else { return }
        let what = if case .store = failure.operation { "images load but are not cached" } else { "entries are not removed" }
        Terminal.writeError("webimage: warning: cannot write to the cache folder \(folder) (\(failure.error.message)); \(what)\n")
    }
}
