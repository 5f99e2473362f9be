import Foundation
import WebImage

/// What one load through the manager reported, for the tool's summaries: counts and the
/// facts its report prints, not the pixels (unless asked to keep them, for `--save`).
struct LoadRecord: Sendable {
    /// How many answers the load delivered (the callback API's completion calls).
    var answers = 0
    /// How many partial images the load delivered before its answers.
    var partials = 0
    /// The bytes the download received, as its progress reported them (0 for cache hits).
    var receivedBytes: Int64 = 0
    /// Where the last answer came from.
    var cacheType = ImageCacheType.none
    /// The last answer's image, described; `nil` when it carried none.
    var image: ImageSummary?
    /// The size of the original bytes the last answer carried.
    var dataCount: Int?
    /// The last answer's error.
    var failure: ImageError?
    /// The last answer's image and bytes, kept only when the record was asked to keep them.
    var kept: (image: Image, data: Data?)?

    /// Whether the load ended with an image.
    var succeeded: Bool { image != nil }

    /// Why the load ended without an image.
    var error: ImageError {
        failure ?? ImageError(.notFound, "the load ended without an image")
    }

    /// Notes `response`, the load's latest answer, keeping its pixels only if `keepsImage`.
    mutating func note(_ response: ImageResponse, keepsImage: Bool) {
        answers += 1
        cacheType = response.cacheType
        image = response.image.map(ImageSummary.init)
        dataCount = response.data?.count
        failure = response.error
        kept = keepsImage ? response.image.map { ($0, response.data) } : nil
    }
}
