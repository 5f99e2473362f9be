import Foundation
import NIOConcurrencyHelpers

/// Routes each load to the loader for its URL, so `http(s):`, `file:`, `data:` and custom
/// schemes go through one path (SDWebImage's `SDImageLoadersManager`).
///
/// A loader added later has a higher priority: the most recently added loader that
/// accepts a URL loads it.
public final class ImageLoadersManager: ImageLoader {
    /// The manager the library uses unless given another: files, `data:` URLs and the
    /// shared downloader.
    public static let shared = ImageLoadersManager()

    private let registered: NIOLockedValueBox<[any ImageLoader]>

    /// Creates a manager with `loaders`, the last one having the highest priority.
    public init(loaders: [any ImageLoader] = [FileImageLoader(), DataURLImageLoader(), ImageDownloader.shared]) {
        registered = NIOLockedValueBox(loaders)
    }

    /// The registered loaders, from lowest to highest priority.
    public var loaders: [any ImageLoader] {
        registered.withLockedValue { $0 }
    }

    /// Adds `loader` with the highest priority.
    public func addLoader(_ loader: any ImageLoader) {
        registered.withLockedValue { $0.append(loader) }
    }

    /// Removes every loader of type `type`.
    public func removeLoaders<Loader: ImageLoader>(ofType type: Loader.Type) {
        registered.withLockedValue { loaders in loaders.removeAll { $0 is Loader } }
    }

    /// Whether any loader handles `url`.
    public func canLoad(_ url: URL) -> Bool {
        loader(for: url) != nil
    }

    /// Loads `request` with the highest-priority loader that accepts its URL.
    ///
    /// - Throws: `ImageError.Code.invalidURL` when no loader accepts the URL, or the
    ///   loader's own error.
    public func loadImage(_ request: ImageLoadRequest) async throws(ImageError) -> ImageLoadResult {
        guard let loader = loader(for: request.url) else {
            throw ImageError(.invalidURL, "no loader handles \(request.url.absoluteString)")
        }
        return try await loader.loadImage(request)
    }

    /// Asks the loader for `url` whether to block it after `error`; `false` when none handles it.
    public func shouldBlockFailedURL(_ url: URL, error: ImageError) -> Bool {
        loader(for: url)?.shouldBlockFailedURL(url, error: error) ?? false
    }

    private func loader(for url: URL) -> (any ImageLoader)? {
        loaders.last { $0.canLoad(url) }
    }
}
