/// A type of ``ImageMemoryStorage``, as ``ImageCacheConfiguration/memoryStorageType`` names it
/// (SDWebImage's `memoryCacheClass`); two are equal when they name the same type.
public struct ImageMemoryStorageType: Sendable, Hashable {
    /// The storage type.
    public let type: any ImageMemoryStorage.Type

    /// Names `type`.
    public init(_ type: any ImageMemoryStorage.Type) {
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
