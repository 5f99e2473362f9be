import Foundation

/// What makes two requests share one transfer: the same URL, the same validators, the same
/// extra headers and the same request-shaping options.
struct DownloadKey: Hashable, Sendable {
    let url: URL
    let validators: HTTPValidators?
    let transferOptions: ImageDownloaderOptions
    let headers: [String: String]

    init(_ request: ImageLoadRequest) {
        url = request.url
        validators = request.validators.flatMap { $0.isEmpty ? nil : $0 }
        transferOptions = request.options.intersection(ImageDownloaderOptions.transferOptions)
        headers = request.headers
    }
}
