import Foundation

/// The disk level of an ``ImageCache`` — SDWebImage's `SDDiskCache` protocol.
///
/// The built-in level is a ``DiskCache``: one file per key in the cache's folder, written
/// atomically, bounded by ``ImageCacheConfiguration/maxDiskAge`` and
/// ``ImageCacheConfiguration/maxDiskSize``. Name another type in
/// ``ImageCacheConfiguration/diskStorageType`` to replace it — a database, an encrypted folder, a
/// store shared with another program: the cache creates one instance on its folder and
/// keeps every byte it writes to disk there.
///
/// ## Implementation requirements
///
/// - The methods may block on I/O: the cache calls them only from its own I/O queue,
///   never from the cooperative pool or an event loop. They may be called from several
///   threads (the I/O queue, and decoding workers reading metadata), so guard shared state.
/// - A store replaces the entry for the key, its bytes and its metadata together, so that
///   a reader never sees the new bytes with the old metadata; ``removeData(forKey:)`` and
///   ``removeAll()`` remove the metadata with the bytes.
/// - ``metadata(forKey:)`` returns what the last store or ``setMetadata(_:forKey:)`` gave,
///   including its ``DiskCacheEntryMetadata/extendedData``, byte for byte.
public protocol ImageDiskStorage: AnyObject, Sendable {
    /// Creates the disk level of a cache configured by `configuration`, keeping its entries in
    /// `directory` (the cache's folder, `<directory>/<namespace>`).
    init(directory: URL, configuration: ImageCacheConfiguration)

    /// The folder the storage was created on.
    var directory: URL { get }

    /// Whether an entry is stored for `key`.
    func containsData(forKey key: String) -> Bool

    /// The bytes stored for `key`; `nil` when there are none.
    func data(forKey key: String) -> Data?

    /// Stores `data` for `key` with `metadata`, replacing any entry there.
    ///
    /// - Throws: `ImageError.Code.fileSystem` (or another code) when the entry cannot be
    ///   written; the entry there before is then left as it was.
    func store(_ data: Data, forKey key: String, metadata: DiskCacheEntryMetadata?) throws(ImageError)

    /// The metadata stored with the entry for `key`; `nil` when there is no entry or none
    /// was stored with it.
    func metadata(forKey key: String) -> DiskCacheEntryMetadata?

    /// Replaces (or, with `nil`, removes) the metadata of the entry for `key`, leaving its
    /// bytes alone.
    ///
    /// - Throws: `ImageError.Code.notFound` when there is no entry for `key`.
    func setMetadata(_ metadata: DiskCacheEntryMetadata?, forKey key: String) throws(ImageError)

    /// Removes the entry for `key` with its metadata.
    func removeData(forKey key: String)

    /// Removes every entry.
    func removeAll()

    /// Removes the entries the configuration's limits say are expired or too many.
    func removeExpiredData()

    /// The number of entries and their bytes, counted now.
    func measure() -> (count: Int, size: Int)
}
