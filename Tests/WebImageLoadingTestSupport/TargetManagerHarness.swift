import Foundation
import LoopbackHTTPServer
import WebImage
import WebImageTestSupport

/// Runs `body` with a fresh loopback server and a manager on its own downloader (decoding
/// the raw test format) and its own cache in a temporary folder, then shuts them down.
package func withTargetManager<Value: Sendable>(
    _ body: (LoopbackHTTPServer, ImageManager) async throws -> Value
) async throws -> Value {
    let directory = TemporaryDirectory(prefix: "webimage-target-tests")
    return try await withDownloader { server, downloader, coder in
        let cache = ImageCache(namespace: "targets", directory: directory.url, coders: ImageCodersManager(coders: [coder]))
        return try await body(server, ImageManager(cache: cache, loader: downloader))
    }
}
