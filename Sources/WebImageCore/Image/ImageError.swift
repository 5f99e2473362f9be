/// The one error type of the library: a stable code, a message for people and,
/// for HTTP failures, the status code and the response head that was refused.
///
/// Every layer (coders, caches, loaders, the manager) throws this type, so a caller
/// can switch on ``code`` without knowing which layer failed.
public struct ImageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, stable across releases (the raw value is used in JSON output).
    public enum Code: String, Sendable, Hashable, CaseIterable, Codable {
        /// The data is not a decodable image: corrupt, truncated or of the wrong format.
        case badImageData
        /// No data at all.
        case emptyData
        /// The data is an image in a format no registered coder decodes or encodes.
        case unsupportedFormat
        /// Decoding would exceed the configured pixel or byte limit.
        case imageTooLarge
        /// The image could not be encoded.
        case encodingFailed
        /// The URL is missing, empty or cannot be parsed.
        case invalidURL
        /// The URL failed before and is blacklisted (use `retryFailed` to try again).
        case blacklisted
        /// The server sent no usable response, or a response modifier refused the response
        /// (SDWebImage's `InvalidDownloadResponse`).
        case badServerResponse
        /// The server answered with a status code outside the acceptable ones (SDWebImage's
        /// `InvalidDownloadStatusCode`); ``ImageError/statusCode`` and
        /// ``ImageError/response`` say which.
        case invalidStatusCode
        /// The server answered with a content type that is not acceptable (SDWebImage's
        /// `InvalidDownloadContentType`); ``ImageError/response`` carries the response.
        case badContentType
        /// The request took longer than the download timeout.
        case timedOut
        /// The download as a whole took longer than its deadline, although data kept
        /// arriving (a transient failure: the URL is not blacklisted).
        case deadlineExceeded
        /// The host name could not be resolved.
        case cannotFindHost
        /// No connection could be made to the host.
        case cannotConnect
        /// The connection was lost before the response ended.
        case connectionLost
        /// The TLS handshake failed (for example an untrusted certificate).
        case tlsFailure
        /// The redirect chain was too long or looped.
        case tooManyRedirects
        /// The response was larger than the configured maximum.
        case responseTooLarge
        /// The load was cancelled.
        case cancelled
        /// A cache-only load found nothing, or a refreshing load was told the image did not change.
        case notFound
        /// A file could not be read or written.
        case fileSystem
        /// The load was refused by the caller's own policy (a request modifier returned nil).
        case refused
    }

    /// What went wrong.
    public let code: Code
    /// A sentence for people: what failed and, where known, why.
    public let message: String
    /// The HTTP status code, for ``Code/invalidStatusCode`` and the other failures of an
    /// HTTP response.
    public let statusCode: Int?
    /// The response head the failure is about (``Code/invalidStatusCode``,
    /// ``Code/badContentType``, ``Code/badServerResponse`` after a response modifier), as
    /// SDWebImage's `SDWebImageErrorDownloadResponseKey` carries it.
    public let response: Response?

    /// Creates an error with a code, a message and, for HTTP failures, a status code and
    /// the response head; the status code defaults to the response's.
    public init(_ code: Code, _ message: String, statusCode: Int? = nil, response: Response? = nil) {
        self.code = code
        self.message = message
        self.statusCode = statusCode ?? response?.statusCode
        self.response = response
    }

    /// `code: message`, as a log line would show it.
    public var description: String { "\(code.rawValue): \(message)" }
}
