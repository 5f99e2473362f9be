import Foundation

/// One answer to a load: what SDWebImage's completion block received.
///
/// A load answers once, except that progressive loads first answer with partial images
/// (``isFinished`` `false`) and ``ImageOptions/refreshCached`` loads answer with the cached
/// image and then, only if the server sends a changed one, with the new image.
public struct ImageResponse: Sendable {
    /// The image; `nil` on failure, or when the load was told not to download.
    public var image: Image?
    /// The bytes the image came from, when known; `nil` for a thumbnail or a transformed
    /// image, which those bytes do not encode.
    public var data: Data?
    /// Why there is no image.
    public var error: ImageError?
    /// Where the image came from: ``ImageCacheType/memory``, ``ImageCacheType/disk``, or
    /// ``ImageCacheType/none`` for a download.
    public var cacheType: ImageCacheType
    /// `false` for the partial images of a progressive load.
    public var isFinished: Bool
    /// The URL that was loaded.
    public var url: URL?
    /// How the download went, for an image downloaded over HTTP by this load; `nil` for
    /// cached images, partial images and other loaders.
    public var downloadMetrics: DownloadMetrics?

    /// Creates a response.
    public init(
        image: Image? = nil,
        data: Data? = nil,
        error: ImageError? = nil,
        cacheType: ImageCacheType = .none,
        isFinished: Bool = true,
        url: URL?,
        downloadMetrics: DownloadMetrics? = nil
    ) {
        self.image = image
        self.data = data
        self.error = error
        self.cacheType = cacheType
        self.isFinished = isFinished
        self.url = url
        self.downloadMetrics = downloadMetrics
    }
}
