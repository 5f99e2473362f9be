import Foundation
import Hummingbird
import Logging
import WebImage

/// How a `webimage serve` process behaves: where it listens, what it may fetch, how it
/// signs URLs and how long clients may keep its answers.
public struct ImageServerConfiguration: Sendable {
    /// The address to listen on (loopback by default).
    public var host = "127.0.0.1"
    /// The port to listen on; 0 picks a free one.
    public var port = 8080
    /// The folder holding the source cache and the result cache.
    public var cacheDirectory: URL
    /// The key URLs are signed with (HMAC-SHA256); `nil` with ``allowsUnsignedURLs``.
    public var signingKey: [UInt8]?
    /// The salt put in front of what is signed.
    public var signingSalt: [UInt8] = []
    /// Accept `_` as the signature segment (for local use only).
    public var allowsUnsignedURLs = false
    /// The hosts sources may come from; empty means any public host.
    public var allowedHosts: Set<String> = []
    /// Fetch sources whose host resolves to a private, loopback or link-local address
    /// (for tests and local use).
    public var allowsPrivateSources = false
    /// The most bytes a source may have.
    public var maxSourceBytes = 32 << 20
    /// The most pixels a source may have.
    public var maxSourcePixels = 50_000_000
    /// Seconds a source fetch may take in all.
    public var sourceTimeout: TimeInterval = 20
    /// How many image requests are worked on at once; more are answered 503.
    public var maxConcurrentRequests = 64
    /// The `max-age` of `Cache-Control` on results, in seconds.
    public var resultMaxAge = 31_536_000
    /// The decoded bytes the memory cache of sources keeps.
    public var memoryLimit = 128 << 20
    /// The least severe log level written: `.info` writes one access-log line per request.
    public var logLevel = Logger.Level.info
    /// An HTML page answered at `/` (the tool's `--demo` page); without one, `/` is refused
    /// like any other path that names no image.
    public var homePage: String?

    /// A configuration caching in `cacheDirectory`.
    public init(cacheDirectory: URL) {
        self.cacheDirectory = cacheDirectory
    }
}
