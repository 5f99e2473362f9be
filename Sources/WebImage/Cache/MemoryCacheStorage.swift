/// The state behind a ``MemoryCache``: a dictionary from key to slot and a doubly linked
/// list, newest first, threaded through an array of slots by index.
///
/// Indices instead of node objects mean a hit only rewrites a few integers: no
/// allocation, no reference counting of list nodes. Freed slots are reused.
struct MemoryCacheStorage<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// One entry and its neighbours in recency order.
    struct Node: Sendable {
        var key: Key
        var value: Value
        var cost: Int
        /// The slot of the next more recently used entry, or -1.
        var newer: Int
        /// The slot of the next less recently used entry, or -1.
        var older: Int
    }

    private(set) var slots: [Node?] = []
    private var freeSlots: [Int] = []
    private var slotByKey: [Key: Int] = [:]
    private var newest = -1
    private var oldest = -1
    private(set) var totalCost = 0

    /// The number of entries.
    var count: Int { slotByKey.count }

    /// The value for `key`, made the most recently used.
    mutating func value(forKey key: Key) -> Value? {
        guard let slot = slotByKey[key] else { return nil }
        moveToFront(slot)
        return slots[slot]!.value
    }

    /// Whether `key` has a value; does not change the recency order.
    func contains(_ key: Key) -> Bool {
        slotByKey[key] != nil
    }

    /// Stores `value` as the most recently used entry, replacing any value for `key`.
    mutating func insert(_ value: Value, forKey key: Key, cost: Int) {
        if let slot = slotByKey[key] {
            totalCost += cost - slots[slot]!.cost
            slots[slot]!.value = value
            slots[slot]!.cost = cost
            moveToFront(slot)
            return
        }
        let node = Node(key: key, value: value, cost: cost, newer: -1, older: newest)
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            slots[slot] = node
        } else {
            slot = slots.count
            slots.append(node)
        }
        if newest >= 0 { slots[newest]!.newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
        slotByKey[key] = slot
        totalCost += cost
    }

    /// Removes the value for `key` and returns it.
    mutating func removeValue(forKey key: Key) -> Value? {
        guard let slot = slotByKey.removeValue(forKey: key) else { return nil }
        return release(slot)
    }

    /// Removes least recently used entries until the totals are within the limits
    /// (0 = unlimited).
    mutating func trim(costLimit: Int, countLimit: Int) {
        while oldest >= 0,
            (costLimit > 0 && totalCost > costLimit) || (countLimit > 0 && count > countLimit)
        {
            let slot = oldest
            slotByKey.removeValue(forKey: slots[slot]!.key)
            _ = release(slot)
        }
    }

    /// Removes every entry.
    mutating func removeAll() {
        self = MemoryCacheStorage()
    }

    /// The keys from most to least recently used.
    var keysByRecency: [Key] {
        var keys: [Key] = []
        var slot = newest
        while slot >= 0 {
            keys.append(slots[slot]!.key)
            slot = slots[slot]!.older
        }
        return keys
    }

    private mutating func moveToFront(_ slot: Int) {
        guard slot != newest else { return }
        unlink(slot)
        slots[slot]!.newer = -1
        slots[slot]!.older = newest
        if newest >= 0 { slots[newest]!.newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }

    private mutating func unlink(_ slot: Int) {
        let newer = slots[slot]!.newer
        let older = slots[slot]!.older
        if newer >= 0 { slots[newer]!.older = older } else { newest = older }
        if older >= 0 { slots[older]!.newer = newer } else { oldest = newer }
    }

    private mutating func release(_ slot: Int) -> Value {
        unlink(slot)
        let node = slots[slot].take()!
        totalCost -= node.cost
        freeSlots.append(slot)
        return node.value
    }
}
