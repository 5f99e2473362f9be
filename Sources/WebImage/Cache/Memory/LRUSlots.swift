/// The state behind a ``MemoryCache``: a dictionary from key to slot, the entries in an
/// array of slots, and a doubly linked recency list, newest first, threaded through a
/// parallel array of plain integers.
///
/// Keeping the links apart from the keys and values means a hit rewrites a few integers
/// and retains nothing but the value it returns: no allocation, no reference counting of
/// list nodes or keys. Freed slots are reused.
@usableFromInline
struct LRUSlots<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// A slot's neighbours in recency order and its entry's cost.
    @usableFromInline
    struct Link: Sendable {
        /// The slot of the next more recently used entry, or -1.
        @usableFromInline var newer: Int
        /// The slot of the next less recently used entry, or -1.
        @usableFromInline var older: Int
        @usableFromInline var cost: Int

        @inlinable
        init(newer: Int, older: Int, cost: Int) {
            self.newer = newer
            self.older = older
            self.cost = cost
        }
    }

    /// A stored key and its value.
    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline let key: Key
        @usableFromInline var value: Value

        @inlinable
        init(key: Key, value: Value) {
            self.key = key
            self.value = value
        }
    }

    @usableFromInline var slotByKey: [Key: Int] = [:]
    @usableFromInline var entries: [Entry?] = []
    @usableFromInline var links: [Link] = []
    @usableFromInline var freeSlots: [Int] = []
    @usableFromInline var newest = -1
    @usableFromInline var oldest = -1
    @usableFromInline var totalCost = 0

    @inlinable
    init() {}

    /// The number of entries.
    @inlinable
    var count: Int { slotByKey.count }

    /// The value for `key`, made the most recently used.
    @inlinable
    mutating func value(forKey key: Key) -> Value? {
        value(forKey: key) { copy $0 }
    }

    /// `projection` of the value for `key`, made the most recently used; the value itself
    /// is only borrowed, not copied.
    @inlinable
    mutating func value<Projection>(forKey key: Key, _ projection: (borrowing Value) -> Projection) -> Projection? {
        guard let slot = slotByKey[key] else { return nil }
        moveToFront(slot)
        return projection(entries[slot]!.value)
    }

    /// Whether `key` has a value; does not change the recency order.
    @inlinable
    func contains(_ key: Key) -> Bool {
        slotByKey[key] != nil
    }

    /// Stores `value` as the most recently used entry, replacing any value for `key`.
    @inlinable
    mutating func insert(_ value: Value, forKey key: Key, cost: Int) {
        if let slot = slotByKey[key] {
            totalCost += cost - links[slot].cost
            links[slot].cost = cost
            entries[slot]?.value = value
            moveToFront(slot)
            return
        }
        let link = Link(newer: -1, older: newest, cost: cost)
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            entries[slot] = Entry(key: key, value: value)
            links[slot] = link
        } else {
            slot = entries.count
            entries.append(Entry(key: key, value: value))
            links.append(link)
        }
        if newest >= 0 { links[newest].newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
        slotByKey[key] = slot
        totalCost += cost
    }

    /// Removes the value for `key` and returns it.
    @inlinable
    mutating func removeValue(forKey key: Key) -> Value? {
        guard let slot = slotByKey.removeValue(forKey: key) else { return nil }
        return release(slot).value
    }

    /// Removes least recently used entries until the totals are within the limits
    /// (0 = unlimited).
    @inlinable
    mutating func trim(costLimit: Int, countLimit: Int) {
        while oldest >= 0,
            (costLimit > 0 && totalCost > costLimit) || (countLimit > 0 && count > countLimit)
        {
            let entry = release(oldest)
            slotByKey.removeValue(forKey: entry.key)
        }
    }

    /// Removes every entry.
    @inlinable
    mutating func removeAll() {
        self = LRUSlots()
    }

    /// The keys from most to least recently used.
    var keysByRecency: [Key] {
        var keys: [Key] = []
        var slot = newest
        while slot >= 0 {
            if let key = entries[slot]?.key { keys.append(key) }
            slot = links[slot].older
        }
        return keys
    }

    @inlinable
    mutating func moveToFront(_ slot: Int) {
        guard slot != newest else { return }
        unlink(slot)
        links[slot].newer = -1
        links[slot].older = newest
        if newest >= 0 { links[newest].newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }

    @inlinable
    mutating func unlink(_ slot: Int) {
        let newer = links[slot].newer
        let older = links[slot].older
        if newer >= 0 { links[newer].older = older } else { newest = older }
        if older >= 0 { links[older].newer = newer } else { oldest = newer }
    }

    /// Empties `slot` and returns what it held.
    @inlinable
    mutating func release(_ slot: Int) -> Entry {
        unlink(slot)
        totalCost -= links[slot].cost
        freeSlots.append(slot)
        return entries[slot].take()!
    }
}
