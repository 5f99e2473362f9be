/// How a cached entry may be used now, by HTTP's rules (see ``ImageCachePolicy/http``).
public enum ImageCacheFreshness: Sendable, Hashable {
    /// The entry answers without asking the server.
    case fresh
    /// The entry answers at once, and is revalidated in the background.
    case staleWhileRevalidate
    /// The entry must be revalidated before it answers.
    case stale
}
