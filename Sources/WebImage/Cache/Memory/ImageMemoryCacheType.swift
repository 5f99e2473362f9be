/// A type of ``ImageMemoryCache``, as ``ImageCacheConfiguration/memoryCacheType`` names it
/// (SDWebImage's `memoryCacheClass`); two are equal when they name the same type.
public struct ImageMemoryCacheType: Sendable, Hashable {
    /// The memory cache type.
    public let type: any ImageMemoryCache.Type

    /// Names `type`.
    public init(_ type: any ImageMemoryCache.Type) {
        self.type = type
    }

    /// Whether both name the same type.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        ObjectIdentifier(lhs.type) == ObjectIdentifier(rhs.type)
    }

    /// Hashes the type's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(type))
    }
}
