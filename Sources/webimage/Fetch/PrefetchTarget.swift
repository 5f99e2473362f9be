import ArgumentParser
import WebImage

/// `prefetch --into`: the tool's name for a ``PrefetchDestination``.
enum PrefetchTarget: String, ExpressibleByArgument, CaseIterable {
    /// Bytes only, into the disk cache.
    case disk
    /// Decoded, into the memory cache (and bytes on disk).
    case memory

    /// The prefetcher's destination.
    var destination: PrefetchDestination {
        switch self {
        case .disk: .diskCache
        case .memory: .memoryCache
        }
    }
}
