import Foundation

/// The bytes a transfer delivered (decrypted, when the download has a decryptor), with the
/// response and metrics that go with every result made from them.
struct DownloadedBody: Sendable {
    let data: Data
    let response: DownloadResponseHead
    let metrics: DownloadMetrics?

    /// A result holding these bytes and `image`.
    func result(image: Image?) -> ImageLoadResult {
        ImageLoadResult(image: image, data: data, response: response, metrics: metrics)
    }
}
