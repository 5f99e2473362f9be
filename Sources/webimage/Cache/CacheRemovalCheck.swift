import ArgumentParser
import NIOConcurrencyHelpers
import WebImage

/// Collects the removals a `cache clear` or `cache clean` could not make, so the command
/// can say why and exit 1 instead of reporting fewer removals as success.
final class CacheRemovalCheck: Sendable {
    private let failures = NIOLockedValueBox<[DiskCacheWriteFailure]>([])

    /// Starts collecting the failures of `cache`'s disk level.
    init(watching cache: ImageCache) {
        cache.diskCache?.writeFailureHandler = { [failures] failure in
            failures.withLockedValue { $0.append(failure) }
        }
    }

    /// Writes the first failure's reason to standard error and exits 1 when any removal
    /// failed; returns when none did.
    func exitIfAnyFailed() throws {
        guard let first = failures.withLockedValue({ $0.first }) else { return }
        Terminal.writeError("webimage: cannot remove the entries of \(first.directory.path): \(first.error.message)\n")
        throw ExitCode(1)
    }
}
