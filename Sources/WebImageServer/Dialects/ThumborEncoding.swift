import WebImage

/// How a thumbor URL's filters ask the result to be written: `format`, `quality`,
/// `max_bytes`, and the background `background_color` or `round_corner` paints.
struct ThumborEncoding: Sendable {
    /// The `format` filter's format; `nil` for the source's.
    var format: ImageFormat?
    /// The `quality` filter's quality.
    var quality: Int?
    /// The `max_bytes` filter's size.
    var maxBytes: Int?
    /// The colour transparent pixels are written over, as a name or hexadecimal.
    var background: String?
}
