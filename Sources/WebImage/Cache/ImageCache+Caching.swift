import Foundation

extension ImageCache: ImageCaching {
    /// Where `key` is held among the levels `scope` names: memory is checked at once, the
    /// disk on the I/O queue.
    public func containsImage(forKey key: String, scope: ImageCacheType) async -> ImageCacheType {
        if scope.includesMemory, layeredMemoryCache.containsValue(forKey: key) { return .memory }
        guard scope.includesDisk else { return .none }
        return await diskImageExists(forKey: key) ? .disk : .none
    }

    /// Empties the levels `scope` names.
    public func clear(scope: ImageCacheType) async {
        if scope.includesMemory { clearMemory() }
        if scope.includesDisk { await clearDisk() }
    }

    /// The cache's ``ImageCacheConfiguration/cachePolicy``.
    public var cachePolicy: ImageCachePolicy { configuration.cachePolicy }
}
