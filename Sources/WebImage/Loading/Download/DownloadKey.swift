import Foundation

/// What makes two requests share one transfer: the same URL, the same validators, the same
/// extra headers, the same request-shaping options and the same hooks.
struct DownloadKey: Hashable, Sendable {
    let url: URL
    let validators: HTTPValidators?
    let transferOptions: ImageDownloaderOptions
    let headers: [String: String]
    /// The modifiers and decryptor the transfer runs.
    let hooks: DownloadHooks

    init(_ request: ImageLoadRequest, configuration: ImageDownloaderConfiguration) {
        url = request.url
        validators = request.validators.flatMap { $0.isEmpty ? nil : $0 }
        transferOptions = request.options.intersection(ImageDownloaderOptions.transferOptions)
        headers = request.headers
        hooks = DownloadHooks(request, configuration: configuration)
    }
}
