import WebImage

/// What one load through the manager reported, for the tool's summaries.
struct LoadRecord: Sendable {
    /// How many answers the load delivered (the callback API's completion calls).
    var answers = 0
    /// How many partial images the load delivered before its answers.
    var partials = 0
    /// The last answer.
    var response: ImageResponse?
    /// The bytes the download received, as its progress reported them (0 for cache hits).
    var receivedBytes: Int64 = 0

    /// Whether the load ended with an image.
    var succeeded: Bool { response?.image != nil }

    /// Why the load ended without an image.
    var error: ImageError {
        response?.error ?? ImageError(.notFound, "the load ended without an image")
    }
}
