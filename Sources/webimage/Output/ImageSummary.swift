import WebImage

/// The facts about a decoded image that the tool's reports print.
struct ImageSummary: Sendable, Equatable {
    /// The format it was decoded from.
    let format: ImageFormat
    /// Width in pixels, as displayed.
    let pixelWidth: Int
    /// Height in pixels, as displayed.
    let pixelHeight: Int
    /// Its frame count (1 for a still image).
    let frameCount: Int

    /// Describes `image`.
    init(_ image: Image) {
        format = image.format
        pixelWidth = image.pixelWidth
        pixelHeight = image.pixelHeight
        frameCount = image.frames.count
    }

    /// Whether it has more than one frame.
    var isAnimated: Bool { frameCount > 1 }
}
