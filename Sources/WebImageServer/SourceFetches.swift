import Foundation
import WebImage

/// Brings each source's bytes into the disk cache once, however many requests ask at the
/// same moment: the first request starts the fetch and the others wait for it, so none of
/// them can find the transfer finished but the file not yet written and fetch again.
///
/// Fetches run within ``SourceFetchLimits``; a fetch that every waiting request has left
/// (their clients went away, or their deadlines passed) is cancelled, whether it runs or
/// still waits for its turn (see ``SharedWork``).
final class SourceFetches: Sendable {
    private let fetches = SharedWork<URL, Void, ImageError>()
    private let manager: ImageManager
    private let metrics: ImageServerMetrics
    private let limits: SourceFetchLimits

    /// Fetches through `manager` within `limits`, counting fetches in `metrics`.
    init(manager: ImageManager, limits: SourceFetchLimits, metrics: ImageServerMetrics) {
        self.manager = manager
        self.limits = limits
        self.metrics = metrics
    }

    /// Makes sure the bytes of `request`'s source are in the disk cache.
    ///
    /// - Throws: The fetch's error, for every request that waited on it.
    func ensureOnDisk(_ request: ImageRequest) async throws(ImageError) {
        guard let url = request.url else { throw ImageError(.invalidURL, "the source URL is missing") }
        let manager = self.manager
        let metrics = self.metrics
        let limits = self.limits
        let host = url.host?.lowercased() ?? ""
        try await fetches.run(url) { () throws(ImageError) in
            try await limits.run(from: host) { () throws(ImageError) in
                if try await manager.storeDataInDiskCache(for: request) {
                    metrics.recordSourceFetch()
                }
            }
        }
    }
}
