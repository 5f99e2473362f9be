import Foundation
@testable import WebImage
@testable import WebImageTestSupport

/// Passes loads on to a real loader and counts them, so a test can wait until callers
/// have reached the loader.
final class CountingImageLoader: ImageLoader {
    private let wrapped: any ImageLoader
    private let loads = ArrivalLog<URL>()

    init(_ wrapped: any ImageLoader) {
        self.wrapped = wrapped
    }

    /// How many loads reached the loader.
    var loadCount: Int { loads.count }

    func canLoad(_ url: URL) -> Bool {
        wrapped.canLoad(url)
    }

    func loadImage(_ request: ImageLoadRequest) async throws(ImageError) -> ImageLoadResult {
        loads.append(request.url)
        return try await wrapped.loadImage(request)
    }

    func shouldBlockFailedURL(_ url: URL, error: ImageError) -> Bool {
        wrapped.shouldBlockFailedURL(url, error: error)
    }

    /// Returns once `count` loads have reached the loader.
    func wait(forLoads count: Int) async throws {
        try await loads.wait(for: count)
    }
}
