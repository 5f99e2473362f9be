import Foundation

/// What happens to a download, for observers (SDWebImage's notifications).
public enum DownloadEvent: Sendable {
    /// The request for the URL was sent.
    case started(URL)
    /// The response head arrived (after any redirects); once per attempt.
    case responseReceived(URL, DownloadResponseHead)
    /// An attempt failed for a passing reason and another starts after a wait (see
    /// ``DownloadRetryPolicy``).
    case retrying(URL, DownloadRetry)
    /// The transfer ended, completed or not.
    case stopped(URL)
    /// The transfer completed without error.
    case finished(URL)

    /// The URL the event is about.
    public var url: URL {
        switch self {
        case .started(let url), .responseReceived(let url, _), .retrying(let url, _), .stopped(let url), .finished(let url):
            url
        }
    }
}
