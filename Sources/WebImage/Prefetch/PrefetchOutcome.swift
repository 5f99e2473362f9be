/// How one prefetched URL ended.
enum PrefetchOutcome: Sendable {
    /// The image is in the cache.
    case loaded
    /// The URL gave no image (an error, or the manager declined to download).
    case skipped
    /// The prefetch was cancelled before the URL finished.
    case cancelled
}
