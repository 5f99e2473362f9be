/// The memory cache of an ``ImageCache`` — SDWebImage's `SDMemoryCache` protocol.
///
/// The built-in one is a ``MemoryCache`` bounded by the configuration's
/// ``ImageCacheConfiguration/maxMemoryCost`` and ``ImageCacheConfiguration/maxMemoryCount``. Name another
/// type in ``ImageCacheConfiguration/memoryCacheType`` to replace it: the cache creates one
/// instance with its configuration and keeps every image it holds in memory there.
///
/// ## Implementation requirements
///
/// Every method is called from any thread, on the path of a synchronous memory hit: guard
/// the cache with a lock, answer at once, and never block on I/O.
public protocol ImageMemoryCache: AnyObject, Sendable {
    /// Creates the memory cache of a cache configured by `configuration`.
    init(configuration: ImageCacheConfiguration)

    /// The entry for `key`; `nil` on a miss.
    func entry(forKey key: String) -> ImageCacheEntry?

    /// Keeps `entry` for `key`, replacing any entry there; `cost` is its
    /// ``ImageCacheEntry/cost``, for caches that bound their size.
    func setEntry(_ entry: ImageCacheEntry, forKey key: String, cost: Int)

    /// Whether an entry is kept for `key`.
    func containsEntry(forKey key: String) -> Bool

    /// Drops the entry for `key`.
    func removeEntry(forKey key: String)

    /// Drops every entry.
    func removeAllEntries()
}
