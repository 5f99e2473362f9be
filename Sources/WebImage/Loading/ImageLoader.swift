import Foundation

/// Something that turns a URL into an image: the HTTP downloader, the file and `data:`
/// loaders, or a custom scheme's loader, all reached through an ``ImageLoadersManager``.
///
/// ## Implementation requirements
///
/// The manager calls a loader for every cache miss, from many tasks at once, and relies on
/// it to keep these rules:
///
/// - **Concurrency.** ``loadImage(_:)`` may run many times at once, for the same URL or
///   different ones. A loader that talks to a server should share one transfer among the
///   requests for one URL (as ``ImageDownloader`` does); it must be `Sendable`.
/// - **No blocking where it does not belong.** `loadImage` is `async`: it must not block
///   the cooperative pool with file or network I/O or with decoding. Read files on an I/O
///   thread and decode on the library's decoding threads, as the built-in loaders do.
/// - **Exactly one answer.** Each call returns once or throws once. When the calling task
///   is cancelled, stop the work for this caller (and free what only it needed) and throw
///   `ImageError.Code.cancelled` promptly; never return an image after that.
/// - **What the request asks.** Decode with ``ImageLoadRequest/decodeOptions`` (its limits
///   included), or return no image when ``ImageLoadRequest/decodesImage`` is `false`;
///   report ``ImageLoadRequest/progress`` starting with `(0, expected or -1)`; send partial
///   images to ``ImageLoadRequest/partialImage`` only with
///   ``ImageDownloaderOptions/progressiveDownload``; answer a revalidation whose
///   ``ImageLoadRequest/validators`` still hold with ``ImageLoadResult/isNotModified``.
/// - **Typed failures.** Every failure is an `ImageError` whose code says what went
///   wrong, so that ``shouldBlockFailedURL(_:error:)`` can tell transient failures
///   (time-outs, lost connections) from permanent ones (a 404, undecodable bytes).
public protocol ImageLoader: Sendable {
    /// Whether this loader handles `url` (usually a look at its scheme).
    func canLoad(_ url: URL) -> Bool

    /// Loads and decodes the image `request` asks for. Cancelling the calling task
    /// cancels the load.
    ///
    /// - Throws: `ImageError` — `ImageError.Code.cancelled` when cancelled.
    func loadImage(_ request: ImageLoadRequest) async throws(ImageError) -> ImageLoadResult

    /// Whether a URL that failed with `error` should be refused from now on (blacklisted).
    func shouldBlockFailedURL(_ url: URL, error: ImageError) -> Bool
}

extension ImageLoader {
    /// Blocks every failure except the transient ones: cancellation, time-outs, passed
    /// deadlines, unknown hosts, refused and lost connections.
    public func shouldBlockFailedURL(_ url: URL, error: ImageError) -> Bool {
        switch error.code {
        case .cancelled, .timedOut, .deadlineExceeded, .cannotFindHost, .cannotConnect, .connectionLost:
            false
        default:
            true
        }
    }
}
