import NIOConcurrencyHelpers

/// The weak half of an ``ImageCache``'s memory cache (SDWebImage's weak memory cache):
/// for each key stored, the image held weakly, so that a key the strong cache has evicted
/// still answers while something else (a view, a caller) keeps its image alive.
///
/// Entries whose image has gone are dropped when looked up, and all at once whenever the
/// table has doubled since the last sweep, so the table stays within twice the images alive.
final class WeakImageTable: Sendable {
    private struct Slot: Sendable {
        weak var image: Image?
        let metadata: DiskCacheEntryMetadata?
    }

    private struct Table: Sendable {
        var slots: [String: Slot] = [:]
        var sweepAt = WeakImageTable.minimumSweepCount
    }

    private static let minimumSweepCount = 64
    private let table = NIOLockedValueBox(Table())

    /// Remembers `entry`'s image, weakly, and its HTTP facts under `key`.
    func set(_ entry: ImageCacheEntry, forKey key: String) {
        table.withLockedValue { table in
            table.slots[key] = Slot(image: entry.image, metadata: entry.metadata)
            guard table.slots.count >= table.sweepAt else { return }
            table.slots = table.slots.filter { $0.value.image != nil }
            table.sweepAt = max(Self.minimumSweepCount, table.slots.count * 2)
        }
    }

    /// An entry for the image under `key`, if it is still alive (without the original
    /// bytes, which the table does not keep).
    func entry(forKey key: String) -> ImageCacheEntry? {
        table.withLockedValue { table in
            guard let slot = table.slots[key] else { return nil }
            guard let image = slot.image else {
                table.slots[key] = nil
                return nil
            }
            return ImageCacheEntry(image: image, data: nil, metadata: slot.metadata)
        }
    }

    func removeValue(forKey key: String) {
        _ = table.withLockedValue { $0.slots.removeValue(forKey: key) }
    }

    func removeAll() {
        table.withLockedValue { $0 = Table() }
    }
}
