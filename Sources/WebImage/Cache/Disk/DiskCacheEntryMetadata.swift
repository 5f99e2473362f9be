import Foundation

/// What the disk cache remembers about an entry besides its bytes: the HTTP facts a
/// downloader needs to revalidate it with the server, how long it stays fresh
/// (RFC 9111; see ``ImageCachePolicy``), and any bytes the caller keeps with it
/// (``extendedData``).
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
    /// When the entry stops being fresh: from `Cache-Control: max-age`, else `Expires`
    /// (both corrected by `Date` and `Age`), else 10 % of the time since `Last-Modified`
    /// (at most a day); `nil` when the response said nothing about freshness.
    public var expirationDate: Date?
    /// Whether the entry must be revalidated before every use (`Cache-Control: no-cache`).
    public var requiresRevalidation: Bool?
    /// Seconds past ``expirationDate`` during which a stale entry may answer at once while
    /// it is revalidated in the background (`stale-while-revalidate`).
    public var staleWhileRevalidate: TimeInterval?
    /// Seconds past ``expirationDate`` during which a stale entry may answer when
    /// revalidation fails with a 5xx or a network error (`stale-if-error`).
    public var staleIfError: TimeInterval?
    /// The request headers the response varies on (`Vary`), lowercased, with the value the
    /// request that fetched it sent ("" for none): a request that sends other values does
    /// not get this entry. `["*": ""]` for `Vary: *`, which no request matches.
    public var variedRequestHeaders: [String: String]?
    /// Bytes of the caller's own kept with the entry (SDWebImage's `extendedData`): stored
    /// and returned with it, memory and disk, kept through revalidations, and removed with
    /// it. See ``ImageCache/setExtendedData(_:forKey:)``.
    public var extendedData: Data?

    /// Creates metadata.
    public init(
        contentType: String? = nil,
        entityTag: String? = nil,
        lastModified: String? = nil,
        expirationDate: Date? = nil,
        requiresRevalidation: Bool? = nil,
        staleWhileRevalidate: TimeInterval? = nil,
        staleIfError: TimeInterval? = nil
    ) {
        self.contentType = contentType
        self.entityTag = entityTag
        self.lastModified = lastModified
        self.expirationDate = expirationDate
        self.requiresRevalidation = requiresRevalidation
        self.staleWhileRevalidate = staleWhileRevalidate
        self.staleIfError = staleIfError
    }

    /// How the entry may be used at `now`.
    public func freshness(at now: Date = Date()) -> ImageCacheFreshness {
        if requiresRevalidation == true { return .stale }
        guard let expirationDate else { return .fresh }
        if now < expirationDate { return .fresh }
        if let window = staleWhileRevalidate, now < expirationDate.addingTimeInterval(window) {
            return .staleWhileRevalidate
        }
        return .stale
    }

    /// Whether a stale entry may still answer at `now` after its revalidation failed.
    public func mayAnswerAfterError(at now: Date = Date()) -> Bool {
        guard let staleIfError else { return false }
        return now < (expirationDate ?? now).addingTimeInterval(staleIfError)
    }
}
