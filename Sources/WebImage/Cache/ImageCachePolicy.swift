/// Which rules decide when a cached image of a network URL must be checked with its server.
public enum ImageCachePolicy: Sendable, Hashable {
    /// HTTP's (RFC 9111): an entry is fresh for the lifetime its response gave
    /// (`Cache-Control: max-age`, else `Expires`, else 10 % of the time since
    /// `Last-Modified`, at most a day); a stale entry is revalidated with its validators
    /// before it answers (or while it answers, within `stale-while-revalidate`), a `304`
    /// refreshes its lifetime without rewriting its bytes, and within `stale-if-error` it
    /// answers when revalidation fails. `no-cache` revalidates every use; `no-store`
    /// keeps the image in memory for the load and never writes it to disk. A response
    /// without any freshness information stays fresh until ``ImageCacheConfiguration/maxDiskAge``.
    /// A response with `Vary` is kept with the values the request sent of those headers
    /// (``DiskCacheEntryMetadata/variedRequestHeaders``, from ``ImageRequest/headers``); a
    /// request that sends other values misses it and gets an entry of its own beside it
    /// (one per set of values; `Vary: *` never answers from the cache).
    case http
    /// SDWebImage's: an entry is good until ``ImageCacheConfiguration/maxDiskAge``, whatever the
    /// server said; only ``ImageOptions/refreshCached`` asks the server again.
    case untilExpired
}
