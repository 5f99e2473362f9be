import Foundation

extension ImageDownloader: ImageLoader {
    /// Whether `url` is an HTTP or HTTPS URL.
    public func canLoad(_ url: URL) -> Bool {
        let scheme = url.scheme?.lowercased()
        return scheme == "http" || scheme == "https"
    }

    /// Downloads and decodes the image `request` asks for.
    public func loadImage(_ request: ImageLoadRequest) async throws(ImageError) -> ImageLoadResult {
        try await image(for: request)
    }
}
