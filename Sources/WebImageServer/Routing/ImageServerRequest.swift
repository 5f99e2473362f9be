import Foundation

/// A request path of the image server, taken apart:
/// `/<signature>/<spec>/plain/<percent-encoded URL>` or `/<signature>/<spec>/<base64url URL>`.
struct ImageServerRequest: Sendable, Equatable {
    /// The signature segment as sent (`_` when unsigned).
    let signature: String
    /// What the signature covers: `/<spec>/<source>` exactly as sent.
    let signedPath: String
    /// The transform spec, percent-decoded.
    let spec: String
    /// The source URL.
    let source: URL

    /// Parses `path` (the request's raw path, without the query).
    ///
    /// - Throws: ``ImageServerError`` 400 when a segment is missing or the source is not a URL.
    init(path: String) throws(ImageServerError) {
        let parts = path.drop { $0 == "/" }.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, !parts[2].isEmpty else {
            throw ImageServerError(.badRequest, "the path must be /<signature>/<spec>/<source>")
        }
        signature = String(parts[0])
        signedPath = "/\(parts[1])/\(parts[2])"
        guard let spec = parts[1].percentDecoded else {
            throw ImageServerError(.badRequest, "the spec is not valid percent-encoding")
        }
        self.spec = spec
        self.source = try Self.source(from: String(parts[2]))
    }

    /// The source URL of a path's last segment: `plain/<percent-encoded URL>` or a
    /// base64url URL.
    ///
    /// - Throws: ``ImageServerError`` 400 when it is neither.
    static func source(from encodedSource: String) throws(ImageServerError) -> URL {
        let text: String?
        if encodedSource.hasPrefix("plain/") {
            text = encodedSource.dropFirst("plain/".count).percentDecoded
        } else {
            text = Base64URL.decode(encodedSource).flatMap { String(bytes: $0, encoding: .utf8) }
        }
        guard let text, let source = URL(string: text), source.scheme != nil else {
            throw ImageServerError(.badRequest, "the source must be plain/<percent-encoded URL> or a base64url URL")
        }
        return source
    }
}
