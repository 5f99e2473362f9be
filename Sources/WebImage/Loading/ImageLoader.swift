import Foundation

/// Something that turns a URL into an image: the HTTP downloader, the file and `data:`
/// loaders, or a custom scheme's loader, all reached through an ``ImageLoadersManager``.
public protocol ImageLoader: Sendable {
    /// Whether this loader handles `url` (usually a look at its scheme).
    func canLoad(_ url: URL) -> Bool

    /// Loads and decodes the image `request` asks for. Cancelling the calling task
    /// cancels the load.
    ///
    /// - Throws: ``ImageError`` — ``ImageError/Code/cancelled`` when cancelled.
    func loadImage(_ request: ImageLoadRequest) async throws(ImageError) -> ImageLoadResult

    /// Whether a URL that failed with `error` should be refused from now on (blacklisted).
    func shouldBlockFailedURL(_ url: URL, error: ImageError) -> Bool
}

extension ImageLoader {
    /// Blocks every failure except the transient ones: cancellation, time-outs, unknown
    /// hosts, refused and lost connections.
    public func shouldBlockFailedURL(_ url: URL, error: ImageError) -> Bool {
        switch error.code {
        case .cancelled, .timedOut, .cannotFindHost, .cannotConnect, .connectionLost:
            false
        default:
            true
        }
    }
}
