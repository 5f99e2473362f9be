import Foundation
import WebImage
import WebImageTestSupport

/// Passes loads on to a real loader and counts them, so a test can wait until callers
/// have reached the loader.
package final class CountingImageLoader: ImageLoader {
    private let wrapped: any ImageLoader
    private let loads = ArrivalLog<URL>()

    package init(_ wrapped: any ImageLoader) {
        self.wrapped = wrapped
    }

    /// How many loads reached the loader.
    package var loadCount: Int { loads.count }

    package func canLoad(_ url: URL) -> Bool {
        wrapped.canLoad(url)
    }

    package func loadImage(_ request: ImageLoadRequest) async throws(ImageError) -> ImageLoadResult {
        loads.append(request.url)
        return try await wrapped.loadImage(request)
    }

    package func shouldBlockFailedURL(_ url: URL, error: ImageError) -> Bool {
        wrapped.shouldBlockFailedURL(url, error: error)
    }

    /// Returns once `count` loads have reached the loader.
    package func wait(forLoads count: Int) async throws {
        try await loads.wait(for: count)
    }
}
