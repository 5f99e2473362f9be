/// A type of ``ImageDiskStorage``, as ``ImageCacheConfiguration/diskStorageType`` names it
/// (SDWebImage's `diskCacheClass`); two are equal when they name the same type.
public struct ImageDiskStorageType: Sendable, Hashable {
    /// The storage type.
    public let type: any ImageDiskStorage.Type

    /// Names `type`.
    public init(_ type: any ImageDiskStorage.Type) {
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
