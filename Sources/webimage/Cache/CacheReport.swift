import WebImage

/// What `webimage cache` prints: the cache's folder, its entries and bytes now, and what
/// the command removed.
struct CacheReport {
    /// The folder of the cache's entries.
    let path: String
    /// The entries on disk now.
    let entries: Int
    /// Their bytes.
    let bytes: Int
    /// The memory cache's limit in decoded bytes (0: unlimited).
    let memoryLimit: Int
    /// How many entries the command removed, and their bytes; `nil` for `info`.
    var removed: (entries: Int, bytes: Int)?

    /// Measures `cache` now, and what was removed since `before`, if given.
    init(cache: ImageCache, before: (entries: Int, bytes: Int)? = nil) async {
        let now = await cache.diskUsage()
        path = cache.diskStorage.directory.path
        entries = now.entries
        bytes = now.bytes
        memoryLimit = cache.configuration.maxMemoryCost
        removed = before.map { (entries: max(0, $0.entries - now.entries), bytes: max(0, $0.bytes - now.bytes)) }
    }

    /// The report as one line, JSON or text.
    func line(json: Bool) -> String {
        if json {
            var object = JSONObject()
            object.add("path", path)
            object.add("entries", entries)
            object.add("bytes", bytes)
            if let removed {
                object.add("removedEntries", removed.entries)
                object.add("removedBytes", removed.bytes)
            } else {
                object.add("memoryLimit", memoryLimit)
            }
            return object.description
        }
        var text = "\(path): \(entries) \(entries == 1 ? "entry" : "entries"), \(Terminal.size(bytes))"
        if let removed {
            text += " (removed \(removed.entries), \(Terminal.size(removed.bytes)))"
        } else {
            text += "; memory cache limit \(memoryLimit == 0 ? "none" : Terminal.size(memoryLimit))"
        }
        return text
    }
}
