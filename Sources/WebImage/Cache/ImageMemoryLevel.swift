/// An ``ImageCache``'s memory level: the built-in ``MemoryCache``, called directly (the
/// synchronous memory hit is benchmarked), or the storage its configuration names.
struct ImageMemoryLevel: Sendable {
    /// The built-in cache, when the configuration names no other storage.
    private let builtIn: MemoryCache<String, ImageCacheEntry>?
    /// The storage: the built-in cache, or the configured one.
    let storage: any ImageMemoryStorage

    init(config: ImageCacheConfig) {
        if let type = config.memoryStorageType?.type {
            builtIn = nil
            storage = type.init(config: config)
        } else {
            let cache = MemoryCache<String, ImageCacheEntry>(config: config)
            builtIn = cache
            storage = cache
        }
    }

    func value(forKey key: String) -> ImageCacheEntry? {
        if let builtIn { return builtIn.value(forKey: key) }
        return storage.entry(forKey: key)
    }

    /// The image for `key`, without copying the entry out of the built-in cache.
    func image(forKey key: String) -> Image? {
        if let builtIn { return builtIn.value(forKey: key) { $0.image } }
        return storage.entry(forKey: key)?.image
    }

    func setValue(_ entry: ImageCacheEntry, forKey key: String, cost: Int) {
        if let builtIn {
            builtIn.setValue(entry, forKey: key, cost: cost)
        } else {
            storage.setEntry(entry, forKey: key, cost: cost)
        }
    }

    func containsValue(forKey key: String) -> Bool {
        storage.containsEntry(forKey: key)
    }

    func removeValue(forKey key: String) {
        storage.removeEntry(forKey: key)
    }

    func removeAll() {
        storage.removeAllEntries()
    }

    /// The built-in cache's total cost; 0 for another storage.
    var totalCost: Int { builtIn?.totalCost ?? 0 }
}
