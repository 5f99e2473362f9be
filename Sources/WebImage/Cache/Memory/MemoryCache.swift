import NIOConcurrencyHelpers

/// A thread-safe, strictly least-recently-used cache in memory, bounded by total cost
/// and by count.
///
/// Each entry carries a cost (for images, the bytes of decoded pixels). When an insert
/// pushes the totals past ``costLimit`` or ``countLimit``, the least recently used
/// entries leave first. A single entry costing more than ``maxEntryCostFraction`` of the
/// cost limit is refused, so one huge image cannot flush everything else.
///
/// A hit takes one lock and moves the entry to the front of the recency list in place:
/// it allocates nothing and retains nothing beyond the returned value. The methods are
/// inlinable, so a cache used from another module runs specialised for its key and
/// value types.
public final class MemoryCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    @usableFromInline
    struct State: Sendable {
        @usableFromInline var storage = LRUSlots<Key, Value>()
        @usableFromInline var costLimit: Int
        @usableFromInline var countLimit: Int
        @usableFromInline var maxEntryCostFraction: Double

        @inlinable
        init(costLimit: Int, countLimit: Int, maxEntryCostFraction: Double) {
            self.costLimit = costLimit
            self.countLimit = countLimit
            self.maxEntryCostFraction = maxEntryCostFraction
        }

        @inlinable
        mutating func trim() {
            storage.trim(costLimit: costLimit, countLimit: countLimit)
        }
    }

    @usableFromInline
    let state: NIOLockedValueBox<State>

    /// Creates an empty cache.
    ///
    /// - Parameters:
    ///   - costLimit: The largest total cost kept; 0 means unlimited.
    ///   - countLimit: The largest number of entries kept; 0 means unlimited.
    ///   - maxEntryCostFraction: The share of `costLimit` one entry may take (0…1).
    @inlinable
    public init(costLimit: Int = 0, countLimit: Int = 0, maxEntryCostFraction: Double = 0.25) {
        state = NIOLockedValueBox(
            State(
                costLimit: max(0, costLimit),
                countLimit: max(0, countLimit),
                maxEntryCostFraction: min(max(maxEntryCostFraction, 0), 1)
            )
        )
    }

    /// The largest total cost kept; 0 means unlimited. Lowering it evicts at once.
    @inlinable
    public var costLimit: Int {
        get { state.withLockedValue { $0.costLimit } }
        set {
            state.withLockedValue { state in
                state.costLimit = max(0, newValue)
                state.trim()
            }
        }
    }

    /// The largest number of entries kept; 0 means unlimited. Lowering it evicts at once.
    @inlinable
    public var countLimit: Int {
        get { state.withLockedValue { $0.countLimit } }
        set {
            state.withLockedValue { state in
                state.countLimit = max(0, newValue)
                state.trim()
            }
        }
    }

    /// The share of ``costLimit`` a single entry may take; larger entries are refused.
    @inlinable
    public var maxEntryCostFraction: Double {
        get { state.withLockedValue { $0.maxEntryCostFraction } }
        set { state.withLockedValue { $0.maxEntryCostFraction = min(max(newValue, 0), 1) } }
    }

    /// The number of entries.
    @inlinable
    public var count: Int { state.withLockedValue { $0.storage.count } }

    /// The sum of the entries' costs.
    @inlinable
    public var totalCost: Int { state.withLockedValue { $0.storage.totalCost } }

    /// The value for `key`, which becomes the most recently used entry.
    @inlinable
    public func value(forKey key: Key) -> Value? {
        state.withLockedValue { $0.storage.value(forKey: key) }
    }

    /// A part of the value for `key`, which becomes the most recently used entry: for a
    /// value that is costly to copy when only one of its fields is wanted.
    @inlinable
    public func value<Projection>(forKey key: Key, projecting projection: (borrowing Value) -> Projection) -> Projection? {
        state.withLockedValue { $0.storage.value(forKey: key, projection) }
    }

    /// Whether the cache holds a value for `key`; the recency order does not change.
    @inlinable
    public func containsValue(forKey key: Key) -> Bool {
        state.withLockedValue { $0.storage.contains(key) }
    }

    /// Stores `value` for `key` as the most recently used entry, then evicts the least
    /// recently used entries until the limits hold.
    ///
    /// - Returns: `false` when the entry was refused because its cost passes the
    ///   per-entry limit; any older value for `key` is then removed too, so the cache never
    ///   answers with a stale value.
    @inlinable
    @discardableResult
    public func setValue(_ value: Value, forKey key: Key, cost: Int = 0) -> Bool {
        let cost = max(0, cost)
        return state.withLockedValue { state in
            if state.costLimit > 0, Double(cost) > Double(state.costLimit) * state.maxEntryCostFraction {
                _ = state.storage.removeValue(forKey: key)
                return false
            }
            state.storage.insert(value, forKey: key, cost: cost)
            state.trim()
            return true
        }
    }

    /// Removes the value for `key` and returns it.
    @inlinable
    @discardableResult
    public func removeValue(forKey key: Key) -> Value? {
        state.withLockedValue { $0.storage.removeValue(forKey: key) }
    }

    /// Removes every entry (for example when the system is short of memory).
    @inlinable
    public func removeAll() {
        state.withLockedValue { $0.storage.removeAll() }
    }

    /// The keys from most to least recently used.
    var keysByRecency: [Key] {
        state.withLockedValue { $0.storage.keysByRecency }
    }
}
