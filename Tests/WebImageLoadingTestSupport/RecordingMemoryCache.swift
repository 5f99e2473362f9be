import NIOConcurrencyHelpers
import WebImage
import WebImageTestSupport

/// A memory cache that keeps every entry in a locked dictionary and logs every store.
package final class RecordingMemoryCache: ImageMemoryCache {
    private struct State {
        var entries: [String: ImageCacheEntry] = [:]
        var stores: [String] = []
        var lookups = 0
    }

    private let state = NIOLockedValueBox(State())

    package init(configuration: ImageCacheConfiguration) {}

    /// The keys stored, in order.
    package var stores: [String] { state.withLockedValue { $0.stores } }

    /// How many lookups reached the cache.
    package var lookups: Int { state.withLockedValue { $0.lookups } }

    package func entry(forKey key: String) -> ImageCacheEntry? {
        state.withLockedValue { state in
            state.lookups += 1
            return state.entries[key]
        }
    }

    package func setEntry(_ entry: ImageCacheEntry, forKey key: String, cost: Int) {
        state.withLockedValue { state in
            state.entries[key] = entry
            state.stores.append(key)
        }
    }

    package func containsEntry(forKey key: String) -> Bool {
        state.withLockedValue { $0.entries[key] != nil }
    }

    package func removeEntry(forKey key: String) {
        state.withLockedValue { _ = $0.entries.removeValue(forKey: key) }
    }

    package func removeAllEntries() {
        state.withLockedValue { $0.entries.removeAll() }
    }
}
