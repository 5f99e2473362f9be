import Foundation
import NIOConcurrencyHelpers
@testable import WebImage

/// Passes loads on to a real loader and counts them, so a test can wait until callers
/// have reached the loader.
final class CountingImageLoader: ImageLoader {
    private struct State {
        var count = 0
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let wrapped: any ImageLoader
    private let state = NIOLockedValueBox(State())

    init(_ wrapped: any ImageLoader) {
        self.wrapped = wrapped
    }

    /// How many loads reached the loader.
    var loadCount: Int { state.withLockedValue { $0.count } }

    func canLoad(_ url: URL) -> Bool {
        wrapped.canLoad(url)
    }

    func loadImage(_ request: ImageLoadRequest) async throws(ImageError) -> ImageLoadResult {
        let ready = state.withLockedValue { state in
            state.count += 1
            let count = state.count
            let ready = state.waiters.filter { $0.count <= count }.map(\.continuation)
            state.waiters.removeAll { $0.count <= count }
            return ready
        }
        for continuation in ready {
            continuation.resume()
        }
        return try await wrapped.loadImage(request)
    }

    func shouldBlockFailedURL(_ url: URL, error: ImageError) -> Bool {
        wrapped.shouldBlockFailedURL(url, error: error)
    }

    /// Returns once `count` loads have reached the loader.
    func wait(forLoads count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLockedValue { state in
                if state.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if done {
                continuation.resume()
            }
        }
    }
}
