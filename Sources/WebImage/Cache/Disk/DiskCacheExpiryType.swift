/// Which file date decides that a disk-cache entry is old.
public enum DiskCacheExpiryType: String, Sendable, Hashable, CaseIterable, Codable {
    /// The last time the entry was read (or written): the cache touches it on every hit,
    /// so entries in use stay. The default, as in SDWebImage's later versions.
    case accessDate
    /// The last time the entry was written.
    case modificationDate
}
