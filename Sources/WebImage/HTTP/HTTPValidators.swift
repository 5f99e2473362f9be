/// What a cached response said about its version, sent back to ask "has it changed?".
///
/// Given to a download, they become `If-None-Match` and `If-Modified-Since`; a `304`
/// answer then yields a "not modified" result instead of an image.
public struct HTTPValidators: Sendable, Hashable {
    /// The cached response's `ETag`.
    public var eTag: String?
    /// The cached response's `Last-Modified`, as the server wrote it.
    public var lastModified: String?

    /// Creates validators; both may be `nil`.
    public init(eTag: String? = nil, lastModified: String? = nil) {
        self.eTag = eTag
        self.lastModified = lastModified
    }

    /// Whether there is nothing to validate with.
    public var isEmpty: Bool { eTag == nil && lastModified == nil }
}
