import WebImage

/// A source decoded once for the requests that share it, as ``DecodedSources`` keeps it:
/// the image, the options it was decoded with, and the bytes of the process-wide memory
/// budget its pixels hold.
///
/// The bytes go back to the budget when the last reference goes: the tier's, when it
/// evicts the decode, and each request's that transforms it. So a decode evicted while a
/// request still reads it stays counted until that request is done.
final class DecodedSource: Sendable {
    /// The decoded image.
    let image: Image
    /// The options it was decoded with.
    let options: ImageDecodeOptions
    /// The bytes its pixels hold of the memory budget.
    let bytes: Int
    private let hold: MemoryHold

    /// `image`, decoded with `options`, whose `bytes` are held by `hold`.
    init(image: Image, options: ImageDecodeOptions, bytes: Int, hold: MemoryHold) {
        self.image = image
        self.options = options
        self.bytes = bytes
        self.hold = hold
    }

    /// Whether the decode is the source at its full size: decoded with no box, or with a
    /// box it fitted inside unscaled (a decode never scales up).
    var isFullSize: Bool {
        guard options.scaleDownLimitBytes == nil else { return false }
        guard let box = options.thumbnailPixelSize else { return true }
        let size = image.pixelSize
        guard options.preserveAspectRatio else { return size.width < box.width && size.height < box.height }
        // A fitting decode scaled down reaches the box on one side; a covering one on both.
        return options.coversThumbnailBox
            ? size.width < box.width || size.height < box.height
            : size.width < box.width && size.height < box.height
    }

    /// Whether a request that would decode with `wanted` gets the same result from this
    /// decode, within the resampler's difference: the decode is the one asked for, the
    /// full-size source, or a reduced decode of the same shape at least as large as the
    /// one asked for, which the request's resize scales down (never up).
    func serves(_ wanted: ImageDecodeOptions) -> Bool {
        if wanted == options || isFullSize { return true }
        guard let box = wanted.thumbnailPixelSize, wanted.preserveAspectRatio, options.preserveAspectRatio,
            wanted.scaleDownLimitBytes == nil
        else { return false }
        let size = image.pixelSize
        return wanted.coversThumbnailBox
            ? size.width >= box.width && size.height >= box.height
            : size.width >= box.width || size.height >= box.height
    }
}
