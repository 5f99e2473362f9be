import Foundation

/// What the disk cache remembers about an entry besides its bytes: the HTTP facts a
/// downloader needs to revalidate it with the server.
///
/// Stored in a `user.` extended attribute of the entry's file, or in a sidecar file
/// when the file system refuses extended attributes.
public struct DiskCacheEntryMetadata: Sendable, Hashable, Codable {
    /// The response's `Content-Type`.
    public var contentType: String?
    /// The response's `ETag`, sent back as `If-None-Match`.
    public var entityTag: String?
    /// The response's `Last-Modified`, sent back verbatim as `If-Modified-Since`.
    public var lastModified: String?
    /// When the server said the response stops being fresh (`Cache-Control: max-age` or `Expires`).
    public var expirationDate: Date?

    /// Creates metadata.
    public init(
        contentType: String? = nil,
        entityTag: String? = nil,
        lastModified: String? = nil,
        expirationDate: Date? = nil
    ) {
        self.contentType = contentType
        self.entityTag = entityTag
        self.lastModified = lastModified
        self.expirationDate = expirationDate
    }
}
