import Foundation
import NIOHTTP1

/// The response head of a download: status, headers and the URL that answered.
public struct DownloadResponseHead: Sendable {
    /// The HTTP status code.
    public var statusCode: Int
    /// The response headers (names compare case-insensitively).
    public var headers: HTTPHeaders
    /// The URL that answered, after any redirects.
    public var url: URL

    /// Creates a response.
    public init(statusCode: Int, headers: HTTPHeaders = HTTPHeaders(), url: URL) {
        self.statusCode = statusCode
        self.headers = headers
        self.url = url
    }

    /// The `ETag` header.
    public var eTag: String? { headers.first(name: "ETag") }

    /// The `Last-Modified` header.
    public var lastModified: String? { headers.first(name: "Last-Modified") }

    /// The `Cache-Control` header.
    public var cacheControl: String? { headers.first(name: "Cache-Control") }

    /// The `Content-Type` header.
    public var contentType: String? { headers.first(name: "Content-Type") }

    /// The media type without parameters, lowercased: `image/png` for `image/PNG; q=1`.
    public var mimeType: String? {
        guard let contentType else { return nil }
        let type = contentType.split(separator: ";", maxSplits: 1).first ?? ""
        return type.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// The `Content-Length` header, when present and valid.
    public var expectedContentLength: Int64? {
        headers.first(name: "Content-Length").flatMap { Int64($0) }
    }

    /// The validators to send when asking later whether this response changed.
    public var validators: HTTPValidators {
        HTTPValidators(eTag: eTag, lastModified: lastModified)
    }
}

extension DownloadResponseHead {
    /// This response head as an error carries it.
    var errorResponse: ImageError.Response {
        ImageError.Response(statusCode: statusCode, headers: headers.map { ($0.name, $0.value) }, url: url.absoluteString)
    }
}
