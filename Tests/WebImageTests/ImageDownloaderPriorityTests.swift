import Foundation
import LoopbackHTTPServer
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite("ImageDownloader priority in flight")
struct ImageDownloaderPriorityTests {
    /// The order in which the server sees the downloads of `paths` (with their options),
    /// queued behind a stalled first download with one download at a time, after
    /// `change` ran on their tokens (and may add callers through the downloader).
    private func serverOrder(
        _ paths: [(String, ImageDownloaderOptions)],
        change: (ImageDownloader, [String: DownloadToken], (String) -> URL) -> Void
    ) async throws -> [String] {
        try await withDownloader(configure: { $0.maxConcurrentDownloads = 1 }) { server, downloader, _ in
            let gate = LoopbackGate()
            server.route("/first") { _, response in
                await gate.wait()
                await response.respondWithRawImage()
            }
            for (path, _) in paths {
                server.route(path) { _, response in await response.respondWithRawImage() }
            }
            let collector = DownloadResultCollector()
            downloader.downloadImage(with: ImageLoadRequest(url: server.url(for: "/first"))) { collector.record($0) }
            try await server.waitForRequests(to: "/first")
            var tokens: [String: DownloadToken] = [:]
            for (path, options) in paths {
                tokens[path] = downloader.downloadImage(with: ImageLoadRequest(url: server.url(for: path), options: options)) {
                    collector.record($0)
                }
            }
            change(downloader, tokens) { server.url(for: $0) }
            gate.open()
            try await collector.wait(for: paths.count + 1)
            return server.requests.map(\.path)
        }
    }

    @Test func raisingAndLoweringATokensPriorityMovesItsQueuedDownload() async throws {
        let order = try await serverOrder([("/a", []), ("/b", []), ("/c", []), ("/d", [])]) { _, tokens, _ in
            tokens["/c"]?.setPriority(.high)
            tokens["/a"]?.setPriority(.low)
        }
        #expect(order == ["/first", "/c", "/b", "/d", "/a"])
    }

    @Test func aQueuedDownloadRunsAtItsCallersHighestPriority() async throws {
        let order = try await serverOrder([("/low", .lowPriority), ("/normal", [])]) { downloader, _, url in
            // A second caller of /low asks for high priority: the shared download moves up.
            downloader.downloadImage(with: ImageLoadRequest(url: url("/low"), options: .highPriority)) { _ in }
        }
        #expect(order == ["/first", "/low", "/normal"])
    }

    @Test func whenTheHighPriorityCallerLeavesTheDownloadMovesBack() async throws {
        let order = try await serverOrder([("/low", .lowPriority), ("/normal", [])]) { downloader, _, url in
            let eager = downloader.downloadImage(with: ImageLoadRequest(url: url("/low"), options: .highPriority)) { _ in }
            eager.cancel()
        }
        #expect(order == ["/first", "/normal", "/low"])
    }

    @Test func changingThePriorityOfAStartedDownloadChangesNothing() async throws {
        try await withDownloader { server, downloader, _ in
            server.route("/r.raw") { _, response in await response.respondWithRawImage() }
            let collector = DownloadResultCollector()
            let token = downloader.downloadImage(with: ImageLoadRequest(url: server.url(for: "/r.raw"))) { collector.record($0) }
            try await server.waitForRequests(to: "/r.raw")
            token.setPriority(.high)
            try await collector.wait(for: 1)
            token.setPriority(.low)
            #expect(collector.images.count == 1)
        }
    }
}
