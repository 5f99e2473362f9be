import Foundation
import NIOConcurrencyHelpers
import Synchronization

/// The thread-safe blacklist of URLs whose load failed for a lasting reason, bounded: it
/// keeps the ``capacity`` most recently failed or refused URLs and forgets the least
/// recently used beyond them, so that a stream of distinct failing URLs (an image server's
/// sources are chosen by strangers) cannot grow it without end. A forgotten URL is simply
/// tried again.
final class FailedURLSet: Sendable {
    /// The default number of URLs kept: 1,000.
    static let defaultCapacity = 1_000

    private struct State: Sendable {
        var urls = LRUSlots<URL, Void>()
        var capacity: Int
    }

    private let state: NIOLockedValueBox<State>
    /// How many URLs the set holds, read without the lock: most sets are empty, and every
    /// memory hit asks.
    private let storedCount = Atomic<Int>(0)

    /// An empty set keeping at most `capacity` URLs.
    init(capacity: Int = FailedURLSet.defaultCapacity) {
        state = NIOLockedValueBox(State(capacity: max(1, capacity)))
    }

    /// The most URLs kept; setting it lower forgets the least recently used at once.
    var capacity: Int {
        get { state.withLockedValue { $0.capacity } }
        set {
            state.withLockedValue {
                $0.capacity = max(1, newValue)
                $0.urls.trim(costLimit: 0, countLimit: $0.capacity)
                storedCount.store($0.urls.count, ordering: .releasing)
            }
        }
    }

    /// Whether `url` is in the set; a hit makes it the most recently used.
    func contains(_ url: URL) -> Bool {
        // Hashing a URL costs more than the rest of a memory hit.
        guard storedCount.load(ordering: .acquiring) > 0 else { return false }
        return state.withLockedValue { $0.urls.value(forKey: url) != nil }
    }

    /// Adds `url` as the most recently used, forgetting the least recently used past the
    /// capacity.
    func insert(_ url: URL) {
        state.withLockedValue {
            $0.urls.insert((), forKey: url, cost: 0)
            $0.urls.trim(costLimit: 0, countLimit: $0.capacity)
            storedCount.store($0.urls.count, ordering: .releasing)
        }
    }

    func remove(_ url: URL) {
        state.withLockedValue {
            _ = $0.urls.removeValue(forKey: url)
            storedCount.store($0.urls.count, ordering: .releasing)
        }
    }

    func removeAll() {
        state.withLockedValue {
            $0.urls.removeAll()
            storedCount.store(0, ordering: .releasing)
        }
    }

    var count: Int { state.withLockedValue { $0.urls.count } }
}
