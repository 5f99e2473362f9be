import Foundation

/// How an ``ImageCache`` behaves; the defaults are SDWebImage's, except that the memory
/// level is bounded (``maxMemoryCost``).
///
/// A cache copies its configuration when it is created.
public struct ImageCacheConfiguration: Sendable, Hashable {
    /// Keep decoded images in memory (and promote disk hits there).
    public var shouldCacheImagesInMemory = true
    /// Seconds after which a disk entry expires (one week); negative means never.
    public var maxDiskAge: TimeInterval = 7 * 24 * 60 * 60
    /// The size in bytes the disk folder is kept under; 0 means unlimited.
    public var maxDiskSize = 0
    /// The total decoded bytes the memory cache keeps; 0 means unlimited.
    ///
    /// Defaults to ``ProcessMemory/defaultMemoryCacheLimit``: 15 % of the memory the
    /// process may use (its cgroup's limit, else physical memory), at most 768 MiB.
    /// SDWebImage leaves this to `NSCache`, which answers the system's memory warnings;
    /// Linux sends none, so an unbounded cache would grow until the process is killed.
    public var maxMemoryCost = ProcessMemory.defaultMemoryCacheLimit
    /// The number of images the memory cache keeps; 0 means unlimited.
    public var maxMemoryCount = 0
    /// Also keep a weak reference to each image stored in memory, so that a key the memory
    /// level has evicted (by cost or count) still answers while the image is alive elsewhere
    /// — in a view, say — and goes back into the memory cache (SDWebImage's weak memory
    /// cache; off by default, as there since 5.12). Only a miss of the memory cache looks
    /// at the weak references, so hits cost the same.
    public var shouldUseWeakMemoryCache = false
    /// The type of the memory cache (SDWebImage's `memoryCacheClass`): the cache creates
    /// one with this configuration. The built-in ``MemoryCache`` when `nil`.
    public var memoryCacheType: ImageMemoryCacheType?
    /// The type of the disk level (SDWebImage's `diskCacheClass`): the cache creates one
    /// on its folder with this configuration. The built-in ``DiskCache`` when `nil`.
    public var diskStorageType: ImageDiskStorageType?
    /// When a cached image of an `http` or `https` URL must be checked with its server:
    /// HTTP's freshness rules (the default) or SDWebImage's "good until
    /// ``maxDiskAge``". See ``ImageCachePolicy``.
    public var cachePolicy = ImageCachePolicy.http
    /// Which file date decides expiry and oldest-first trimming.
    public var diskCacheExpiryType = DiskCacheExpiryType.accessDate
    /// Folders searched, read-only, after the cache's own folder (pre-bundled images).
    public var readOnlyDirectories: [URL] = []

    /// The default configuration.
    public init() {}

    /// The folder that holds the caches' namespaces unless told otherwise:
    /// `$XDG_CACHE_HOME/SwiftWebImage`, or `~/.cache/SwiftWebImage`.
    public static var defaultDiskCacheDirectory: URL {
        let root: URL
        if let xdg = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            root = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            root = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache", isDirectory: true)
        }
        return root.appendingPathComponent("SwiftWebImage", isDirectory: true)
    }
}
