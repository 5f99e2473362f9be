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
    /// Called after each URL with the URL and `(finished, total)` (SDWebImage's
    /// `didPrefetchURL:finishedCount:totalCount:`).
    public typealias URLProgress = @Sendable (_ url: URL, _ finished: Int, _ total: Int) -> Void

    private struct State {
        var maxConcurrentPrefetchCount = 3
        var options: ImageOptions = [.lowPriority]
        var destination = PrefetchDestination.memoryCache
        var tokens: [Int: ImagePrefetchToken] = [:]
        var nextTokenID = 0
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

    /// Prefetches `urls`, reporting progress (`didPrefetch` also names each URL) and
    /// completion on `callbackQueue` (the manager's when `nil`). The completion is called
    /// exactly once, also after the returned token's ``ImagePrefetchToken/cancel()`` or
    /// ``cancelPrefetching()`` (counting what finished until then). Calls run side by side;
    /// a new call never cancels an earlier one.
    ///
    /// - Returns: The token that cancels this call only.
    @discardableResult
    public func prefetch(
        _ urls: [URL],
        callbackQueue: DispatchQueue? = nil,
        progress: Progress? = nil,
        didPrefetch: URLProgress? = nil,
        completion: Completion? = nil
    ) -> ImagePrefetchToken {
        let queue = DispatchQueue(label: "SwiftWebImage.ImagePrefetcher.callbacks", target: callbackQueue ?? manager.callbackQueue)
        return state.withLockedValue { state in
            let id = state.nextTokenID
            state.nextTokenID += 1
            // The task removes its token under the lock, so it cannot do so before it is stored.
            let task = Task {
                let (finished, skipped) = await self.prefetch(urls) { finished, total in
                    queue.async { progress?(finished, total) }
                } didPrefetch: { url, finished, total in
                    queue.async { didPrefetch?(url, finished, total) }
                }
                // The call leaves the running tokens before its completion runs.
                _ = self.state.withLockedValue { $0.tokens.removeValue(forKey: id) }
                queue.async { completion?(finished, skipped) }
            }
            let token = ImagePrefetchToken(urls: urls, task: task) { [weak self] in
                // A cancelled call leaves the running tokens when `cancel()` returns.
                _ = self?.state.withLockedValue { $0.tokens.removeValue(forKey: id) }
            }
            state.tokens[id] = token
            return token
        }
    }

    /// The tokens of the calls still running and not cancelled, oldest first.
    public var runningTokens: [ImagePrefetchToken] {
        state.withLockedValue { state in state.tokens.sorted { $0.key < $1.key }.map(\.value) }
    }

    /// Prefetches `urls` and returns `(finished, skipped)`; cancelling the calling task
    /// stops the URLs not yet loaded.
    public func prefetch(
        _ urls: [URL],
        progress: (@Sendable (_ finished: Int, _ total: Int) -> Void)? = nil,
        didPrefetch: URLProgress? = nil
    ) async -> (finished: Int, skipped: Int) {
        let (width, options, destination) = state.withLockedValue {
            ($0.maxConcurrentPrefetchCount, $0.options, $0.destination)
        }
        return await withTaskGroup(of: (URL, PrefetchOutcome).self) { group in
            var pending = urls.makeIterator()
            var finished = 0, skipped = 0
            func startNext() -> Bool {
                guard !Task.isCancelled, let url = pending.next() else { return false }
                group.addTask { (url, await self.outcome(of: url, options: options, destination: destination)) }
                return true
            }
            for _ in 0..<width where !startNext() { break }
            while let (url, outcome) = await group.next() {
                if outcome != .cancelled {
                    finished += 1
                    if outcome == .skipped { skipped += 1 }
                    // The URL's own report first, as SDWebImage calls its delegate before
                    // the progress block: a progress handler counting reports sees this one.
                    didPrefetch?(url, finished, urls.count)
                    progress?(finished, urls.count)
                }
                _ = startNext()
            }
            return (finished, skipped)
        }
    }

    /// Loads one URL to `destination`.
    private func outcome(of url: URL, options: ImageOptions, destination: PrefetchDestination) async -> PrefetchOutcome {
        do throws(ImageError) {
            let request = ImageRequest(url: url, options: options)
            switch destination {
            case .memoryCache:
                let response = try await manager.image(for: request)
                return response.image == nil ? .skipped : .loaded
            case .diskCache:
                try await manager.storeDataInDiskCache(for: request)
                return .loaded
            }
        } catch {
            // Only this prefetch's own cancellation leaves a URL uncounted; a load
            // cancelled under it (the downloader's `cancelAllDownloads`) is skipped.
            return Task.isCancelled ? .cancelled : .skipped
        }
    }

    /// Stops every prefetch in progress; loads callers started themselves go on, and each
    /// stopped prefetch still reports its completion with what finished before.
    public func cancelPrefetching() {
        for token in runningTokens {
            token.cancel()
        }
    }
}
