import Foundation

/// Changes the response head of a download before it is checked (SDWebImage's
/// `SDWebImageDownloaderResponseModifier`): its status code, headers or both. The checks
/// that follow (``ImageDownloaderConfiguration/acceptableStatusCodes``,
/// ``ImageDownloaderConfiguration/acceptableContentTypes``, `304`) see the modified response, so a
/// modifier can accept a `404` that carries an image, or refuse a `200`. Returning `nil`
/// fails the download with `ImageError.Code.badServerResponse`.
///
/// Set one on the downloader (``ImageDownloaderConfiguration/responseModifier``) for every
/// download, or on a request (``ImageLoadRequest/responseModifier``,
/// ``ImageRequest/responseModifier``) to replace the downloader's for that request. Requests
/// for one URL share a transfer only when they use the same modifier instance.
///
/// ```swift
/// request.responseModifier = DownloadResponseModifier(headers: ["Content-Type": "image/png"])
/// ```
///
/// It runs on an event-loop thread of the HTTP client, so it should return quickly.
public final class DownloadResponseModifier: Sendable {
    /// Returns the response to check, or `nil` to refuse it.
    public typealias Modify = @Sendable (DownloadResponseHead) -> DownloadResponseHead?

    private let modify: Modify

    /// A modifier that runs `modify` on each final response head.
    public init(_ modify: @escaping Modify) {
        self.modify = modify
    }

    /// A modifier that sets the status to `statusCode` and each of `headers`, replacing any
    /// value the response had for the same name (SDWebImage's `initWithStatusCode:` and
    /// `initWithHeaders:`, whose status is 200).
    public convenience init(statusCode: Int = 200, headers: [String: String] = [:]) {
        let sorted = headers.sorted { $0.key < $1.key }
        self.init { response in
            var response = response
            response.statusCode = statusCode
            for (name, value) in sorted {
                response.headers.replaceOrAdd(name: name, value: value)
            }
            return response
        }
    }

    /// The response to check instead of `response`, or `nil` to refuse it.
    public func modified(_ response: DownloadResponseHead) -> DownloadResponseHead? {
        modify(response)
    }
}
