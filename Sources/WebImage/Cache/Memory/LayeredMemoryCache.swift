/// An ``ImageCache``'s memory cache: the built-in ``MemoryCache``, called directly (the
/// synchronous memory hit is benchmarked), or the one its configuration names; with
/// ``ImageCacheConfiguration/shouldUseWeakMemoryCache``, a ``WeakImageTable`` behind it that
/// answers only when the strong cache misses.
struct LayeredMemoryCache: Sendable {
    /// The built-in cache, when the configuration names no other.
    private let builtIn: MemoryCache<String, ImageCacheEntry>?
    /// The strong cache: the built-in one, or the configured one.
    let cache: any ImageMemoryCache
    /// The weak table, when the configuration asks for it.
    private let weakTable: WeakImageTable?

    init(configuration: ImageCacheConfiguration) {
        if let type = configuration.memoryCacheType?.type {
            builtIn = nil
            cache = type.init(configuration: configuration)
        } else {
            let builtInCache = MemoryCache<String, ImageCacheEntry>(configuration: configuration)
            builtIn = builtInCache
            cache = builtInCache
        }
        weakTable = configuration.shouldUseWeakMemoryCache ? WeakImageTable() : nil
    }

    func value(forKey key: String) -> ImageCacheEntry? {
        if let builtIn {
            if let entry = builtIn.value(forKey: key) { return entry }
        } else if let entry = cache.entry(forKey: key) {
            return entry
        }
        return weakEntry(forKey: key)
    }

    /// The image for `key`, without copying the entry out of the built-in cache.
    func image(forKey key: String) -> Image? {
        if let builtIn {
            if let image = builtIn.value(forKey: key, projecting: { $0.image }) { return image }
        } else if let image = cache.entry(forKey: key)?.image {
            return image
        }
        return weakEntry(forKey: key)?.image
    }

    /// A strong miss answered by the weak table: the image goes back into the strong cache,
    /// as SDWebImage's memory cache puts it back.
    private func weakEntry(forKey key: String) -> ImageCacheEntry? {
        guard let weakTable, let entry = weakTable.entry(forKey: key) else { return nil }
        setStrongValue(entry, forKey: key, cost: entry.cost)
        return entry
    }

    func setValue(_ entry: ImageCacheEntry, forKey key: String, cost: Int) {
        setStrongValue(entry, forKey: key, cost: cost)
        weakTable?.set(entry, forKey: key)
    }

    private func setStrongValue(_ entry: ImageCacheEntry, forKey key: String, cost: Int) {
        if let builtIn {
            builtIn.setValue(entry, forKey: key, cost: cost)
        } else {
            cache.setEntry(entry, forKey: key, cost: cost)
        }
    }

    func containsValue(forKey key: String) -> Bool {
        cache.containsEntry(forKey: key) || weakTable?.entry(forKey: key) != nil
    }

    func removeValue(forKey key: String) {
        cache.removeEntry(forKey: key)
        weakTable?.removeValue(forKey: key)
    }

    func removeAll() {
        cache.removeAllEntries()
        weakTable?.removeAll()
    }

    /// The built-in cache's total cost; 0 for another cache.
    var totalCost: Int { builtIn?.totalCost ?? 0 }
}
