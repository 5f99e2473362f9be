/// The built-in memory cache of an ``ImageCache``.
extension MemoryCache: ImageMemoryCache where Key == String, Value == ImageCacheEntry {
    /// A cache bounded by `configuration`'s ``ImageCacheConfiguration/maxMemoryCost`` and
    /// ``ImageCacheConfiguration/maxMemoryCount``.
    public convenience init(configuration: ImageCacheConfiguration) {
        self.init(costLimit: configuration.maxMemoryCost, countLimit: configuration.maxMemoryCount)
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
