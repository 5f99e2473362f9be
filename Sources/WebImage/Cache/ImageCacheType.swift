/// Where an image was found in the cache, or which levels an operation covers.
///
/// As a result it says where a query found the image; as a scope it says which levels a
/// query reads, a store writes or a remove clears.
public enum ImageCacheType: String, Sendable, Hashable, CaseIterable, Codable {
    /// Not in the cache (as a result), or no level at all (as a scope).
    case none
    /// The memory cache.
    case memory
    /// The disk cache.
    case disk
    /// Both levels (as a scope).
    case all

    /// Whether the scope covers the memory cache.
    public var includesMemory: Bool { self == .memory || self == .all }

    /// Whether the scope covers the disk cache.
    public var includesDisk: Bool { self == .disk || self == .all }
}
