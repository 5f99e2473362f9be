import Foundation
import LoopbackHTTPServer
import NIOConcurrencyHelpers
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite("ImageDownloader transfer metrics")
struct ImageDownloaderMetricsTests {
    /// Checks what every finished download's metrics must show.
    static func expectPlausible(_ metrics: DownloadMetrics?, bytes: Int, status: Int, redirects: Int = 0) throws {
        let metrics = try #require(metrics, "a finished download carries metrics")
        let sent = try #require(metrics.requestSent)
        let firstByte = try #require(metrics.responseStart)
        #expect(metrics.start <= sent)
        #expect(sent <= firstByte)
        #expect(firstByte <= metrics.end)
        #expect(metrics.timeToFirstByte == metrics.start.duration(to: firstByte))
        #expect(metrics.duration >= .zero)
        #expect(metrics.bytesReceived == bytes)
        #expect(metrics.statusCode == status)
        #expect(metrics.redirectCount == redirects)
        #expect(metrics.attemptCount == 1)
    }

    @Test func everyFinishedDownloadCarriesMetrics() async throws {
        try await withDownloader { server, downloader, _ in
            let body = RawRGBATestCoder.encode(width: 5, height: 4)
            server.route("/image") { _, response in await response.respond(headers: [("Content-Type", "image/x-raw")], body: body) }
            let image = try await downloader.image(from: server.url(for: "/image"))
            try Self.expectPlausible(image.metrics, bytes: body.count, status: 200)
            let data = try await downloader.data(from: server.url(for: "/image"))
            try Self.expectPlausible(data.metrics, bytes: body.count, status: 200)
        }
    }

    @Test func metricsCountTheRedirectsFollowed() async throws {
        try await withDownloader { server, downloader, _ in
            let body = RawRGBATestCoder.encode(width: 3, height: 3)
            server.route("/first") { _, response in await response.respond(status: 302, headers: [("Location", "/second")]) }
            server.route("/second") { _, response in await response.respond(status: 301, headers: [("Location", "/final")]) }
            server.route("/final") { _, response in await response.respond(headers: [("Content-Type", "image/x-raw")], body: body) }
            let result = try await downloader.image(from: server.url(for: "/first"))
            #expect(result.image?.pixelWidth == 3)
            try Self.expectPlausible(result.metrics, bytes: body.count, status: 200, redirects: 2)
        }
    }

    @Test func aNotModifiedAnswerCarriesMetrics() async throws {
        try await withDownloader { server, downloader, _ in
            server.route("/etag") { _, response in await response.respond(status: 304, headers: [("ETag", "\"v1\"")]) }
            let result = try await downloader.image(from: server.url(for: "/etag"), validators: HTTPValidators(eTag: "\"v1\""))
            #expect(result.isNotModified)
            try Self.expectPlausible(result.metrics, bytes: 0, status: 304)
        }
    }

    @Test func aRetriedDownloadCountsItsAttempts() async throws {
        try await withDownloader(configure: { configuration in
            configuration.retryPolicy = DownloadRetryPolicy(maximumAttempts: 2, initialDelay: 0.01, jitter: 0)
        }) { server, downloader, _ in
            let body = RawRGBATestCoder.encode(width: 2, height: 2)
            let attempts = NIOLockedValueBox(0)
            server.route("/flaky") { _, response in
                let attempt = attempts.withLockedValue { count in
                    count += 1
                    return count
                }
                if attempt == 1 {
                    await response.respond(status: 503)
                } else {
                    await response.respond(headers: [("Content-Type", "image/x-raw")], body: body)
                }
            }
            let result = try await downloader.image(from: server.url(for: "/flaky"))
            #expect(result.metrics?.attemptCount == 2)
            #expect(result.metrics?.statusCode == 200)
            #expect(result.metrics?.bytesReceived == body.count)
        }
    }

    @Test func theTokenShowsTheMetricsOfAFailedTransfer() async throws {
        try await withDownloader { server, downloader, _ in
            server.route("/missing") { _, response in await response.respond(status: 404, body: Array("gone".utf8)) }
            let collector = DownloadResultCollector()
            let token = downloader.downloadImage(with: ImageLoadRequest(url: server.url(for: "/missing")), completion: collector.record)
            try await collector.wait(for: 1)
            #expect(collector.errors.first?.code == .invalidStatusCode)
            let metrics = try #require(token.metrics)
            #expect(metrics.statusCode == 404)
            #expect(metrics.bytesReceived == 0, "a refused response's body is not read")
            #expect(metrics.start <= metrics.end)
        }
    }

    @Test func managerCallersSeeTheDownloadsMetrics() async throws {
        try await ManagerTestHarness.run { harness in
            let png = try ManagerTestImage.png()
            harness.serve("/m.png", png)
            let downloaded = try await harness.manager.image(from: harness.url("/m.png"))
            #expect(downloaded.cacheType == .none)
            try Self.expectPlausible(downloaded.downloadMetrics, bytes: png.count, status: 200)
            let callback = try await harness.load(ImageRequest(url: harness.url("/m.png"), options: .fromLoaderOnly))
            try Self.expectPlausible(callback.downloadMetrics, bytes: png.count, status: 200)
            let cached = try await harness.manager.image(from: harness.url("/m.png"))
            #expect(cached.cacheType == .memory)
            #expect(cached.downloadMetrics == nil, "a cached image was not downloaded by this load")
        }
    }
}
