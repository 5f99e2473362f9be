import Foundation
import NIOConcurrencyHelpers

/// Loads a list of URLs into the cache ahead of need, a few at a time and at low
/// priority — SDWebImage's `SDWebImagePrefetcher`.
///
/// Prefetching goes through the manager, so a URL a caller is already loading is not
/// downloaded twice, and cancelling a prefetch cancels only the prefetcher's share: a
/// load a caller started goes on.
public final class ImagePrefetcher: Sendable {
    /// Called after each URL with `(finished, total)`.
    public typealias Progress = @Sendable (_ finished: Int, _ total: Int) -> Void
    /// Called once at the end with `(finished, skipped)`: skipped URLs gave no image.
    public typealias Completion = @Sendable (_ finished: Int, _ skipped: Int) -> Void

    private struct State {
        var maxConcurrentPrefetchCount = 3
        var options: ImageOptions = [.lowPriority]
        var destination = PrefetchDestination.memoryCache
        var tasks: [Int: Task<Void, Never>] = [:]
        var nextTaskID = 0
    }

    /// The prefetcher of the shared manager.
    public static let shared = ImagePrefetcher()

    /// The manager that loads and caches.
    public let manager: ImageManager
    private let state = NIOLockedValueBox(State())

    /// Creates a prefetcher loading through `manager`.
    public init(manager: ImageManager = .shared) {
        self.manager = manager
    }

    /// How many URLs load at once (3 by default, at least 1).
    public var maxConcurrentPrefetchCount: Int {
        get { state.withLockedValue { $0.maxConcurrentPrefetchCount } }
        set { state.withLockedValue { $0.maxConcurrentPrefetchCount = max(1, newValue) } }
    }

    /// The options of every prefetch load (``ImageOptions/lowPriority`` by default).
    public var options: ImageOptions {
        get { state.withLockedValue { $0.options } }
        set { state.withLockedValue { $0.options = newValue } }
    }

    /// Where prefetched images go: decoded into memory (the default, SDWebImage's
    /// behaviour) or as bytes onto disk only. See ``PrefetchDestination``.
    public var destination: PrefetchDestination {
        get { state.withLockedValue { $0.destination } }
        set { state.withLockedValue { $0.destination = newValue } }
    }

    /// Prefetches `urls`, reporting progress and completion on `callbackQueue` (the
    /// manager's when `nil`). The completion is called exactly once, also after
    /// ``cancelPrefetching()`` (counting what finished until then).
    public func prefetch(
        _ urls: [URL],
        callbackQueue: DispatchQueue? = nil,
        progress: Progress? = nil,
        completion: Completion? = nil
    ) {
        let queue = DispatchQueue(label: "SwiftWebImage.ImagePrefetcher.callbacks", target: callbackQueue ?? manager.callbackQueue)
        state.withLockedValue { state in
            let id = state.nextTaskID
            state.nextTaskID += 1
            state.tasks[id] = Task {
                let (finished, skipped) = await self.prefetch(urls) { finished, total in
                    queue.async { progress?(finished, total) }
                }
                queue.async { completion?(finished, skipped) }
                _ = self.state.withLockedValue { $0.tasks.removeValue(forKey: id) }
            }
        }
    }

    /// Prefetches `urls` and returns `(finished, skipped)`; cancelling the calling task
    /// stops the URLs not yet loaded.
    public func prefetch(
        _ urls: [URL],
        progress: (@Sendable (_ finished: Int, _ total: Int) -> Void)? = nil
    ) async -> (finished: Int, skipped: Int) {
        let (width, options, destination) = state.withLockedValue {
            ($0.maxConcurrentPrefetchCount, $0.options, $0.destination)
        }
        return await withTaskGroup(of: PrefetchOutcome.self) { group in
            var pending = urls.makeIterator()
            var finished = 0, skipped = 0
            func startNext() -> Bool {
                guard !Task.isCancelled, let url = pending.next() else { return false }
                group.addTask {
                    do throws(ImageError) {
                        let request = ImageRequest(url: url, options: options)
                        switch destination {
                        case .memoryCache:
                            let response = try await self.manager.image(for: request)
                            return response.image == nil ? .skipped : .loaded
                        case .diskCache:
                            try await self.manager.storeDataInDiskCache(for: request)
                            return .loaded
                        }
                    } catch {
                        // Only this prefetch's own cancellation leaves a URL uncounted; a load
                        // cancelled under it (the downloader's `cancelAllDownloads`) is skipped.
                        return Task.isCancelled ? .cancelled : .skipped
                    }
                }
                return true
            }
            for _ in 0..<width where !startNext() { break }
            while let outcome = await group.next() {
                if outcome != .cancelled {
                    finished += 1
                    if outcome == .skipped { skipped += 1 }
                    progress?(finished, urls.count)
                }
                _ = startNext()
            }
            return (finished, skipped)
        }
    }

    /// Stops every prefetch in progress; loads callers started themselves go on, and each
    /// stopped prefetch still reports its completion with what finished before.
    public func cancelPrefetching() {
        let tasks = state.withLockedValue { Array($0.tasks.values) }
        for task in tasks {
            task.cancel()
        }
    }
}
