import Foundation
import NIOConcurrencyHelpers
import WebImage

/// Brings each source's bytes into the disk cache once, however many requests ask at the
/// same moment: the first request starts the fetch and the others wait for it, so none of
/// them can find the transfer finished but the file not yet written and fetch again.
final class SourceFetches: Sendable {
    private let running = NIOLockedValueBox<[URL: Task<Result<Void, ImageError>, Never>]>([:])
    private let manager: ImageManager
    private let metrics: ImageServerMetrics

    /// Fetches through `manager`, counting fetches in `metrics`.
    init(manager: ImageManager, metrics: ImageServerMetrics) {
        self.manager = manager
        self.metrics = metrics
    }

    /// Makes sure the bytes of `request`'s source are in the disk cache.
    ///
    /// - Throws: The fetch's error, for every request that waited on it.
    func ensureOnDisk(_ request: ImageRequest) async throws(ImageError) {
        guard let url = request.url else { throw ImageError(.invalidURL, "the source URL is missing") }
        let manager = self.manager
        let metrics = self.metrics
        let task = running.withLockedValue { running in
            if let existing = running[url] { return existing }
            let task = Task { () -> Result<Void, ImageError> in
                do throws(ImageError) {
                    if try await manager.storeDataInDiskCache(for: request) {
                        metrics.recordSourceFetch()
                    }
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            running[url] = task
            return task
        }
        let result = await task.value
        running.withLockedValue { running in
            if running[url] == task { running[url] = nil }
        }
        try result.get()
    }
}
