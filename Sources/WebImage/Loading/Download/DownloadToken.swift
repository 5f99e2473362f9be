import Foundation

/// One caller's share of a download; cancelling it ends only that caller's share.
///
/// The cancelled caller's completion is called once with `ImageError.Code.cancelled`;
/// the transfer itself stops when every caller sharing it has cancelled.
public final class DownloadToken: Sendable {
    /// The URL the caller asked for.
    public let url: URL
    private let operation: DownloadOperation?
    private let handlerID: Int

    init(url: URL, operation: DownloadOperation?, handlerID: Int) {
        self.url = url
        self.operation = operation
        self.handlerID = handlerID
    }

    /// The final response head (after any redirects and the response modifier), once it
    /// has arrived; `nil` before, and for a download that failed before a response came
    /// (SDWebImage's `SDWebImageDownloadToken.response`).
    public var response: DownloadResponseHead? {
        operation?.response
    }

    /// How the transfer went, once it has ended, failed transfers included; `nil` before,
    /// and for a download that never started (SDWebImage's `SDWebImageDownloadToken.metrics`).
    /// A successful download's result carries the same metrics (``ImageLoadResult/metrics``).
    public var metrics: DownloadMetrics? {
        operation?.finalMetrics
    }

    /// Changes this caller's priority while the download waits in the queue: the download
    /// starts at the highest priority among its callers, and moves behind the others of
    /// that priority when it changes. Does nothing once the transfer has started (an HTTP
    /// transfer under way has no priority to change) or after completion.
    public func setPriority(_ priority: DownloadPriority) {
        operation?.setPriority(priority, handlerID: handlerID)
    }

    /// Ends this caller's share of the download. Does nothing after completion.
    public func cancel() {
        operation?.cancel(handlerID: handlerID)
    }
}
