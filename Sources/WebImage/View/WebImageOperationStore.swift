import Foundation
import NIOConcurrencyHelpers

/// The loads one target is running, by operation key — SDWebImage's
/// `UIView+WebCacheOperation`.
///
/// Each key holds at most one load: starting a load under a key cancels the one before it.
/// The store also remembers the URL last asked for under each key, and a generation number
/// per key so that a load that was replaced (and answers `ImageError.Code.cancelled`, or an
/// image that raced its cancellation on another thread) no longer changes the target. Loads are held weakly, as SDWebImage's map table
/// does: a finished load disappears from the store by itself.
public final class WebImageOperationStore: Sendable {
    private struct Entry {
        weak var operation: ImageLoadOperation?
        var url: URL?
        var generation: UInt64 = 0
    }

    private let entries = NIOLockedValueBox([String: Entry]())

    /// Creates an empty store.
    public init() {}

    /// The load running under `key`, if it has not finished.
    public func operation(forKey key: String) -> ImageLoadOperation? {
        entries.withLockedValue { entries in
            guard let operation = entries[key]?.operation, !operation.isFinished else { return nil }
            return operation
        }
    }

    /// Whether a load is running under `key`.
    public func isLoading(forKey key: String) -> Bool {
        operation(forKey: key) != nil
    }

    /// The URL last asked for under `key`.
    public func url(forKey key: String) -> URL? {
        entries.withLockedValue { $0[key]?.url }
    }

    /// Cancels the load under `key` (unless `cancellingPrevious` is `false`: it goes on,
    /// no longer shown) and starts a new generation for `url`; returns the generation that
    /// answers of the new load must carry to be shown.
    @discardableResult
    public func beginLoad(of url: URL?, forKey key: String, cancellingPrevious: Bool = true) -> UInt64 {
        let (previous, generation) = entries.withLockedValue { entries -> (ImageLoadOperation?, UInt64) in
            var entry = entries[key] ?? Entry()
            let previous = entry.operation
            entry.operation = nil
            entry.url = url
            entry.generation &+= 1
            entries[key] = entry
            return (previous, entry.generation)
        }
        if cancellingPrevious {
            previous?.cancel()
        }
        return generation
    }

    /// Records `operation` as the load of `generation` under `key`; cancels it at once when
    /// a newer load under the key has begun meanwhile.
    public func setOperation(_ operation: ImageLoadOperation, forKey key: String, generation: UInt64) {
        let isCurrent = entries.withLockedValue { entries -> Bool in
            guard entries[key]?.generation == generation else { return false }
            entries[key]?.operation = operation
            return true
        }
        if !isCurrent {
            operation.cancel()
        }
    }

    /// Whether `generation` is still the newest load under `key`.
    public func isCurrent(_ generation: UInt64, forKey key: String) -> Bool {
        entries.withLockedValue { $0[key]?.generation == generation }
    }

    /// Cancels the load under `key`; returns whether one was running. The load stays the
    /// key's current one, so that its `ImageError.Code.cancelled` answer may show a delayed
    /// placeholder, until another load begins under the key.
    @discardableResult
    public func cancelOperation(forKey key: String) -> Bool {
        let operation = entries.withLockedValue { entries -> ImageLoadOperation? in
            defer { entries[key]?.operation = nil }
            return entries[key]?.operation
        }
        guard let operation, !operation.isFinished else { return false }
        operation.cancel()
        return true
    }

    /// Forgets the load under `key` without cancelling it (SDWebImage's `removeImageLoadOperation`).
    public func removeOperation(forKey key: String) {
        entries.withLockedValue { $0[key]?.operation = nil }
    }

    /// Cancels every load of the target.
    public func cancelAll() {
        let keys = entries.withLockedValue { Array($0.keys) }
        for key in keys {
            cancelOperation(forKey: key)
        }
    }
}
