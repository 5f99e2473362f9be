import Foundation

/// What an image request asks for, whichever dialect its path is written in: the source,
/// the server's spec, and how its format may depend on `Accept`.
struct ImageRouteTarget: Sendable {
    /// The source URL.
    let source: URL
    /// The server's operations, read from the native spec the path is or becomes.
    let spec: ImageServerSpec
    /// Whether `format=auto` and `format=best` are resolved by the client's `Accept` (the
    /// native dialect); otherwise `format=auto` is the source's format.
    let negotiatesFormat: Bool
    /// Whether the dialect itself chose the format by `Accept` (imgproxy's WebP and AVIF
    /// detection), so that the answer carries `Vary: Accept`.
    let variesWithAccept: Bool
    /// Whether a source's failing status is answered as imgproxy answers it
    /// (`ImageServerError.answeringSourceStatusAsImgproxy`) rather than as the native
    /// dialect does (404 for a source's 404 or 410, 502 for any other).
    var answersSourceStatusAsImgproxy = false
    /// The images the spec's `watermark=` draws by name that are fetched for this request
    /// (thumbor's `watermark` filter), each held to every rule a source is.
    var watermarkSources: [String: URL] = [:]
}
