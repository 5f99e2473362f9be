import Foundation

/// Reads thumbor's URLs into the server's own spec: the signature checked as thumbor checks
/// it (HMAC-SHA1 under the security key, or `unsafe` when allowed), the path read by
/// thumbor's pattern, the source decoded (`http://` put in front of one without a scheme,
/// as thumbor's HTTP loader does).
struct ThumborDialect: Sendable {
    /// The dialect's settings.
    let configuration: ThumborConfiguration

    /// A request read: the native spec, the source, and whether the answer varies with
    /// `Accept`.
    struct Request: Sendable, Equatable {
        /// The server's own spec the path becomes.
        let spec: String
        /// The source URL.
        let source: URL
        /// Whether `AUTO_WEBP` made the answer depend on `Accept`.
        let variesWithAccept: Bool
        /// The images of the `watermark` filters, each fetched as a source is and drawn by
        /// the spec under the name ``ThumborPath/watermarkName(_:)`` gives its index.
        var watermarks: [URL] = []
    }

    /// Reads `path` (raw, without the query) for a client that sent `accept`.
    ///
    /// - Throws: ``ImageServerError`` 400, thumbor's answer, for an `unsafe` URL the
    ///   configuration does not allow, a bad signature, a path without an image or a
    ///   source that is not a URL, and for a part or filter the server does not serve.
    func request(path: String, accept: String?) throws(ImageServerError) -> Request {
        let parsed = try ThumborPath(path: path)
        if parsed.signature == "unsafe" {
            guard configuration.allowsUnsafeURLs else {
                throw ImageServerError(.badRequest, "invalid thumbor URL: unsafe URLs are not allowed (ALLOW_UNSAFE_URL)")
            }
        } else {
            guard let key = configuration.securityKey, ThumborSignature.matches(parsed.signature, key: key, path: parsed.signedPath)
            else { throw ImageServerError(.badRequest, "invalid thumbor URL: malformed URL (the signature does not match)") }
        }
        guard let source = ThumborPath.sourceURL(parsed.image) else { throw ThumborPath.invalid("the image is not a URL") }
        let (spec, varies, watermarks) = try parsed.nativeSpec(configuration: configuration, accept: accept)
        return Request(spec: spec, source: source, variesWithAccept: varies, watermarks: watermarks)
    }
}
