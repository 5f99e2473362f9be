import Foundation

/// One call of ``ImagePrefetcher/prefetch(_:callbackQueue:progress:didPrefetch:completion:)``
/// — SDWebImage 5's `SDWebImagePrefetchToken`: cancel it to stop that call's URLs only.
public final class ImagePrefetchToken: Sendable {
    /// The URLs the call prefetches.
    public let urls: [URL]
    private let task: Task<Void, Never>
    private let leaveRunningTokens: @Sendable () -> Void

    init(urls: [URL], task: Task<Void, Never>, leaveRunningTokens: @escaping @Sendable () -> Void) {
        self.urls = urls
        self.task = task
        self.leaveRunningTokens = leaveRunningTokens
    }

    /// Stops the URLs of this call not yet loaded; other calls, and loads callers started
    /// themselves, go on. The token has left ``ImagePrefetcher/runningTokens`` when this
    /// returns (as in SDWebImage); the call's completion still runs once, with what
    /// finished before.
    public func cancel() {
        task.cancel()
        leaveRunningTokens()
    }

    /// Whether ``cancel()`` (or the prefetcher's `cancelPrefetching()`) was called.
    public var isCancelled: Bool { task.isCancelled }
}
