import Foundation
import NIOConcurrencyHelpers
import WebImage

/// Brings each source's bytes into the disk cache once, however many requests ask at the
/// same moment: the first request starts the fetch and the others wait for it, so none of
/// them can find the transfer finished but the file not yet written and fetch again.
///
/// Fetches run within ``SourceFetchLimits``; a fetch that every waiting request has left
/// (their clients went away, or their deadlines passed) is cancelled, whether it runs or
/// still waits for its turn.
final class SourceFetches: Sendable {
    private struct Fetch {
        let task: Task<Result<Void, ImageError>, Never>
        var waiting: Int
    }

    private let running = NIOLockedValueBox<[URL: Fetch]>([:])
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
        let task = running.withLockedValue { running in
            if let existing = running[url] {
                running[url]?.waiting += 1
                return existing.task
            }
            let task = Task { () -> Result<Void, ImageError> in
                do throws(ImageError) {
                    try await limits.run(from: host) { () throws(ImageError) in
                        if try await manager.storeDataInDiskCache(for: request) {
                            metrics.recordSourceFetch()
                        }
                    }
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            running[url] = Fetch(task: task, waiting: 1)
            return task
        }
        // This request leaves once: when it is cancelled while it waits, or when the fetch ends.
        let left = NIOLockedValueBox(false)
        let leaveOnce = { @Sendable in
            let first = left.withLockedValue { left in
                defer { left = true }
                return !left
            }
            if first { self.leave(url, task: task) }
        }
        let result = await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            leaveOnce()
        }
        leaveOnce()
        try result.get()
    }

    /// Counts one request that waited on `task` for `url` as gone; the last one out
    /// forgets the fetch, and cancels it if it has not ended.
    private func leave(_ url: URL, task: Task<Result<Void, ImageError>, Never>) {
        let abandoned = running.withLockedValue { running -> Bool in
            guard let fetch = running[url], fetch.task == task else { return false }
            guard fetch.waiting > 1 else {
                running[url] = nil
                return true
            }
            running[url]?.waiting -= 1
            return false
        }
        if abandoned { task.cancel() }
    }
}
