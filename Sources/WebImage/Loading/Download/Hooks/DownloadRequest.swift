import Foundation
import NIOHTTP1

/// The HTTP request a download is about to send, as a request modifier sees it.
public struct DownloadRequest: Sendable {
    /// The URL to get.
    public var url: URL
    /// The headers to send (the downloader adds `Host`, cookies and credentials itself).
    public var headers: HTTPHeaders

    /// Creates a request.
    public init(url: URL, headers: HTTPHeaders = HTTPHeaders()) {
        self.url = url
        self.headers = headers
    }
}
