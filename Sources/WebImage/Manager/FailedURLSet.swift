import Foundation
import NIOConcurrencyHelpers

/// The thread-safe blacklist of URLs whose load failed for a lasting reason.
final class FailedURLSet: Sendable {
    private let urls = NIOLockedValueBox(Set<URL>())

    func contains(_ url: URL) -> Bool {
        // Hashing a URL costs more than the rest of a memory hit; most sets are empty.
        urls.withLockedValue { !$0.isEmpty && $0.contains(url) }
    }

    func insert(_ url: URL) {
        _ = urls.withLockedValue { $0.insert(url) }
    }

    func remove(_ url: URL) {
        _ = urls.withLockedValue { $0.remove(url) }
    }

    func removeAll() {
        urls.withLockedValue { $0.removeAll() }
    }

    var count: Int { urls.withLockedValue { $0.count } }
}
