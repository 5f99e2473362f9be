/// Where an ``ImagePrefetcher`` puts what it loads.
public enum PrefetchDestination: Sendable, Hashable {
    /// Decode each image and keep it in the memory cache (and its bytes on disk), as
    /// SDWebImage's prefetcher does: the later load answers at once, but every prefetched
    /// image costs its decoded size.
    case memoryCache
    /// Download each image's bytes into the disk cache without decoding them (after a
    /// cheap check of their header), as Nuke's prefetcher can: the later load decodes
    /// from disk, and a prefetch of any number of images costs next to no memory.
    case diskCache
}
