import Foundation
import NIOConcurrencyHelpers
import Synchronization

/// The thread-safe blacklist of URLs whose load failed for a lasting reason.
final class FailedURLSet: Sendable {
    private let urls = NIOLockedValueBox(Set<URL>())
    /// How many URLs the set holds, read without the lock: most sets are empty, and every
    /// memory hit asks.
    private let storedCount = Atomic<Int>(0)

    func contains(_ url: URL) -> Bool {
        // Hashing a URL costs more than the rest of a memory hit.
        guard storedCount.load(ordering: .acquiring) > 0 else { return false }
        return urls.withLockedValue { $0.contains(url) }
    }

    func insert(_ url: URL) {
        urls.withLockedValue {
            $0.insert(url)
            storedCount.store($0.count, ordering: .releasing)
        }
    }

    func remove(_ url: URL) {
        urls.withLockedValue {
            $0.remove(url)
            storedCount.store($0.count, ordering: .releasing)
        }
    }

    func removeAll() {
        urls.withLockedValue {
            $0.removeAll()
            storedCount.store(0, ordering: .releasing)
        }
    }

    var count: Int { urls.withLockedValue { $0.count } }
}
