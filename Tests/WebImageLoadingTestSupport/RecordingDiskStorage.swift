import Foundation
import NIOConcurrencyHelpers
import WebImage
import WebImageTestSupport

/// A disk level that keeps every entry in a locked dictionary and logs every store and
/// removal.
package final class RecordingDiskStorage: ImageDiskStorage {
    private struct State {
        var entries: [String: (data: Data, metadata: DiskCacheEntryMetadata?)] = [:]
        var stores: [String] = []
        var removals: [String] = []
        var removedAll = 0
    }

    private let state = NIOLockedValueBox(State())
    package let directory: URL

    package init(directory: URL, configuration: ImageCacheConfiguration) {
        self.directory = directory
    }

    /// The keys stored, in order.
    package var stores: [String] { state.withLockedValue { $0.stores } }

    /// The keys removed one by one, in order.
    package var removals: [String] { state.withLockedValue { $0.removals } }

    /// How many times every entry was removed.
    package var removedAll: Int { state.withLockedValue { $0.removedAll } }

    package func containsData(forKey key: String) -> Bool {
        state.withLockedValue { $0.entries[key] != nil }
    }

    package func data(forKey key: String) -> Data? {
        state.withLockedValue { $0.entries[key]?.data }
    }

    package func store(_ data: Data, forKey key: String, metadata: DiskCacheEntryMetadata?) throws(ImageError) {
        state.withLockedValue { state in
            state.entries[key] = (data, metadata)
            state.stores.append(key)
        }
    }

    package func metadata(forKey key: String) -> DiskCacheEntryMetadata? {
        state.withLockedValue { $0.entries[key]?.metadata }
    }

    package func setMetadata(_ metadata: DiskCacheEntryMetadata?, forKey key: String) throws(ImageError) {
        let found = state.withLockedValue { state in
            guard let entry = state.entries[key] else { return false }
            state.entries[key] = (entry.data, metadata)
            return true
        }
        if !found { throw ImageError(.notFound, "no entry for \(key)") }
    }

    package func removeData(forKey key: String) {
        state.withLockedValue { state in
            state.entries[key] = nil
            state.removals.append(key)
        }
    }

    package func removeAll() {
        state.withLockedValue { state in
            state.entries.removeAll()
            state.removedAll += 1
        }
    }

    package func removeExpiredData() {}

    package func measure() -> (count: Int, size: Int) {
        state.withLockedValue { state in (state.entries.count, state.entries.values.reduce(0) { $0 + $1.data.count }) }
    }
}
