import Foundation

/// A cache the manager loads through — SDWebImage 5's `SDImageCache` protocol.
///
/// ``ImageCache`` adopts it, and so does ``ImageCachesManager``, which puts several caches
/// behind one. Adopt it to plug another store (a database, a remote cache, an encrypted
/// folder) into ``ImageManager`` or into one ``ImageRequest``.
///
/// Every operation takes a scope: ``ImageCacheType/memory``, ``ImageCacheType/disk`` or
/// ``ImageCacheType/all``; ``ImageCacheType/none`` does nothing. A cache without levels
/// treats any scope but `none` as its one level.
///
/// ## Implementation requirements
///
/// - Never block the cooperative pool: run file and database work on your own threads and
///   resume the caller from there.
/// - Honour task cancellation in ``image(forKey:scope:decodeOptions:)``: throw
///   `ImageError.Code.cancelled` promptly, and answer a cancelled query once.
/// - ``memoryResult(forKey:decodeOptions:)`` must answer at once, under a lock at most; it
///   is what lets a memory hit complete before `loadImage` returns.
public protocol ImageCaching: Sendable {
    /// Looks `key` up in the levels `scope` names; `nil` on a miss.
    ///
    /// - Throws: `ImageError.Code.cancelled` when the calling task is cancelled first.
    func image(
        forKey key: String, scope: ImageCacheType, decodeOptions: ImageDecodeOptions?
    ) async throws(ImageError)
        -> ImageCacheResult?

    /// Looks `key` up as ``image(forKey:scope:decodeOptions:)`` does, keeping a disk hit in
    /// memory only when `storeScope` includes ``ImageCacheType/memory`` (SDWebImage's
    /// `storeCacheType` on a query). The manager calls this one with the request's
    /// ``ImageRequest/storeCacheType``; by default it ignores `storeScope`.
    func image(
        forKey key: String, scope: ImageCacheType, decodeOptions: ImageDecodeOptions?, storeScope: ImageCacheType
    ) async throws(ImageError)
        -> ImageCacheResult?

    /// Stores an image, its bytes, or both, for `key` in the levels `scope` names, with
    /// the HTTP facts of its response.
    func store(
        _ image: Image?, data: Data?, forKey key: String, scope: ImageCacheType, metadata: DiskCacheEntryMetadata?)
        async throws(ImageError)

    /// Removes the entry for `key` from the levels `scope` names.
    func removeImage(forKey key: String, scope: ImageCacheType) async

    /// Where the levels `scope` names hold `key`: ``ImageCacheType/memory``,
    /// ``ImageCacheType/disk``, or ``ImageCacheType/none``.
    func containsImage(forKey key: String, scope: ImageCacheType) async -> ImageCacheType

    /// Empties the levels `scope` names.
    func clear(scope: ImageCacheType) async

    /// The memory hit for `key`, answered at once on the calling thread; `nil` on a miss or
    /// for a cache with no such level (the default).
    func memoryResult(forKey key: String, decodeOptions: ImageDecodeOptions?) -> ImageCacheResult?

    /// The HTTP facts kept with `key`'s entry, for revalidation; `nil` (the default) when
    /// the cache keeps none.
    func metadata(forKey key: String) async -> DiskCacheEntryMetadata?

    /// Replaces the HTTP facts kept with `key`'s entry after a `304 Not Modified`, leaving
    /// its image and bytes alone. Does nothing by default.
    func refreshMetadata(_ metadata: DiskCacheEntryMetadata, forKey key: String) async

    /// Whether loads through this cache follow HTTP's caching rules
    /// (``ImageCachePolicy/http``) or keep entries until they expire
    /// (``ImageCachePolicy/untilExpired``, the default).
    var cachePolicy: ImageCachePolicy { get }
}

extension ImageCaching {
    /// The lookup of ``image(forKey:scope:decodeOptions:)``, `storeScope` ignored.
    public func image(
        forKey key: String, scope: ImageCacheType, decodeOptions: ImageDecodeOptions?, storeScope: ImageCacheType
    ) async throws(ImageError) -> ImageCacheResult? {
        try await image(forKey: key, scope: scope, decodeOptions: decodeOptions)
    }

    /// No synchronous level: every lookup goes through ``image(forKey:scope:decodeOptions:)``.
    public func memoryResult(forKey key: String, decodeOptions: ImageDecodeOptions?) -> ImageCacheResult? { nil }

    /// No HTTP facts.
    public func metadata(forKey key: String) async -> DiskCacheEntryMetadata? { nil }

    /// Nothing to refresh.
    public func refreshMetadata(_ metadata: DiskCacheEntryMetadata, forKey key: String) async {}

    /// Entries stay until they expire.
    public var cachePolicy: ImageCachePolicy { .untilExpired }
}
