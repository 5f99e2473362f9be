import Foundation
import LoopbackHTTPServer
import WebImage
import WebImageTestSupport

/// What a manager test loads through: a loopback server, a cache in a fresh folder, a
/// downloader of its own and a manager joining the two.
package struct ManagerTestHarness: Sendable {
    /// The namespace of every cache the harness makes, so managers made later share entries.
    package static let namespace = "manager-tests"

    package let server: LoopbackHTTPServer
    package let folder: TemporaryDirectory
    package let downloader: ImageDownloader
    package let manager: ImageManager

    package var cache: ImageCache { manager.cache as! ImageCache }

    /// Runs `body` with a fresh server, folder, downloader and manager, then shuts them down.
    package static func run<Value: Sendable>(
        configure: (inout ImageDownloaderConfiguration) -> Void = { _ in },
        _ body: (ManagerTestHarness) async throws -> Value
    ) async throws -> Value {
        let server = try await LoopbackHTTPServer.start()
        var configuration = ImageDownloaderConfiguration()
        // Tests stall transfers on purpose; a suite under ThreadSanitizer can starve the
        // cooperative pool for longer than the default idle timeout. Tests of timeouts set their own.
        configuration.downloadTimeout = 300
        configuration.downloadDeadline = 600
        configure(&configuration)
        let downloader = ImageDownloader(configuration: configuration)
        let folder = TemporaryDirectory(prefix: "image-manager")
        let cache = ImageCache(namespace: namespace, directory: folder.url)
        let harness = ManagerTestHarness(
            server: server, folder: folder, downloader: downloader,
            manager: ImageManager(cache: cache, loader: downloader)
        )
        do {
            let result = try await body(harness)
            try await downloader.shutdown()
            try await server.stop()
            return result
        } catch {
            try? await downloader.shutdown()
            try? await server.stop()
            throw error
        }
    }

    /// A new cache on the harness's folder: it sees the disk entries, not the memory ones.
    package func makeCache() -> ImageCache {
        ImageCache(namespace: Self.namespace, directory: folder.url)
    }

    /// A new manager on a new cache in the harness's folder, loading with `loader`
    /// (the harness's downloader when `nil`).
    package func makeManager(loader: (any ImageLoader)? = nil) -> ImageManager {
        ImageManager(cache: makeCache(), loader: loader ?? downloader)
    }

    /// The loopback URL of `path`.
    package func url(_ path: String) -> URL {
        server.url(for: path)
    }

    /// Serves `body` at `path` with `headers`, once `gate` (when given) is open.
    package func serve(_ path: String, _ body: Data, headers: [(String, String)] = [("Content-Type", "image/png")], after gate: LoopbackGate? = nil) {
        server.route(path) { _, response in
            await gate?.wait()
            await response.respond(headers: headers, body: Array(body))
        }
    }

    /// Loads `request` with the callback API and returns its first answer; throws when none
    /// comes within fifteen minutes.
    package func load(_ request: ImageRequest, with manager: ImageManager? = nil) async throws -> ImageResponse {
        let recorder = ImageResponseRecorder()
        (manager ?? self.manager).loadImage(with: request, completion: recorder.record)
        try await recorder.wait(for: 1)
        return recorder.responses[0]
    }

    /// Loads `url` with `options` with the callback API and returns its first answer.
    package func load(_ url: URL, options: ImageOptions = [], with manager: ImageManager? = nil) async throws -> ImageResponse {
        try await load(ImageRequest(url: url, options: options), with: manager)
    }

    /// Returns once `operation` has ended and `callbackQueue` (the request's serial queue)
    /// has run everything queued on it by then. A load that ends without a last answer
    /// (a 304 after the cached image) gives nothing to wait for but its state, so this polls
    /// (for at most ``eventually(within:_:)``'s bound).
    package func waitUntilFinished(_ operation: ImageLoadOperation, callbackQueue: DispatchQueue) async {
        await eventually { operation.isFinished }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            callbackQueue.async { continuation.resume() }
        }
    }
}
