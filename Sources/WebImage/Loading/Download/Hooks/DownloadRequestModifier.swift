import Foundation

/// Changes the HTTP request of a download before it is sent (SDWebImage's
/// `SDWebImageDownloaderRequestModifier`); returning `nil` cancels the download with
/// `ImageError.Code.refused`.
///
/// Set one on the downloader (``ImageDownloaderConfiguration/requestModifier``) for every
/// download, or on a request (``ImageLoadRequest/requestModifier``,
/// ``ImageRequest/requestModifier``) to replace the downloader's for that request. Requests
/// for one URL share a transfer only when they use the same modifier instance.
///
/// ```swift
/// configuration.requestModifier = DownloadRequestModifier(headers: ["Authorization": "Bearer \(token)"])
/// ```
///
/// It runs once per request sent (redirects and retries included), possibly on an event-loop
/// thread of the HTTP client, so it should return quickly.
public final class DownloadRequestModifier: Sendable {
    /// Returns the request to send, or `nil` to refuse it.
    public typealias Modify = @Sendable (DownloadRequest) -> DownloadRequest?

    private let modify: Modify

    /// A modifier that runs `modify` on each request.
    public init(_ modify: @escaping Modify) {
        self.modify = modify
    }

    /// A modifier that sets each of `headers`, replacing any value the request had for the
    /// same name (SDWebImage's `initWithHeaders:`).
    public convenience init(headers: [String: String]) {
        let sorted = headers.sorted { $0.key < $1.key }
        self.init { request in
            var request = request
            for (name, value) in sorted {
                request.headers.replaceOrAdd(name: name, value: value)
            }
            return request
        }
    }

    /// The request to send instead of `request`, or `nil` to refuse it.
    public func modified(_ request: DownloadRequest) -> DownloadRequest? {
        modify(request)
    }
}
