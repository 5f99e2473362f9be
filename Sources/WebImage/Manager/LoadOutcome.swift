import Foundation

/// How one run of the load engine ended, as one state instead of a response whose image and
/// error are both optional.
enum LoadOutcome: Sendable {
    /// An image: from the cache, or loaded (``ImageCacheType/none``, with the download's
    /// metrics when it came over HTTP).
    case image(Image, data: Data?, cacheType: ImageCacheType, metrics: DownloadMetrics? = nil)
    /// The load failed.
    case failed(ImageError)
    /// A refresh the server answered with "not modified": the cached answer, already given,
    /// stands.
    case notModified
    /// A miss the ``ImageManager/shouldDownload`` hook did not let download: no image and
    /// no error.
    case declined
    /// The calling task was cancelled.
    case cancelled

    /// The last answer this outcome gives a caller of `url`; `nil` when it gives none (a
    /// cancelled load, or a refresh whose cached answer stands).
    func response(for url: URL?) -> ImageResponse? {
        switch self {
        case let .image(image, data, cacheType, metrics):
            ImageResponse(image: image, data: data, cacheType: cacheType, url: url, downloadMetrics: metrics)
        case let .failed(error):
            ImageResponse(error: error, url: url)
        case .declined:
            ImageResponse(url: url)
        case .notModified, .cancelled:
            nil
        }
    }
}
