/// The built-in memory level of an ``ImageCache``.
extension MemoryCache: ImageMemoryStorage where Key == String, Value == ImageCacheEntry {
    /// A cache bounded by `config`'s ``ImageCacheConfiguration/maxMemoryCost`` and
    /// ``ImageCacheConfiguration/maxMemoryCount``.
    public convenience init(config: ImageCacheConfiguration) {
        self.init(costLimit: config.maxMemoryCost, countLimit: config.maxMemoryCount)
    }

    /// The entry for `key`, marked as recently used.
    public func entry(forKey key: String) -> ImageCacheEntry? {
        value(forKey: key)
    }

    /// Keeps `entry` at `cost`, evicting the least recently used entries over the limits.
    public func setEntry(_ entry: ImageCacheEntry, forKey key: String, cost: Int) {
        setValue(entry, forKey: key, cost: cost)
    }

    /// Whether an entry is kept for `key`.
    public func containsEntry(forKey key: String) -> Bool {
        containsValue(forKey: key)
    }

    /// Drops the entry for `key`.
    public func removeEntry(forKey key: String) {
        removeValue(forKey: key)
    }

    /// Drops every entry.
    public func removeAllEntries() {
        removeAll()
    }
}
