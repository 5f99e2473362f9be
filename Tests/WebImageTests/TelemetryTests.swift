import Foundation
import LoopbackHTTPServer
import Logging
import NIOConcurrencyHelpers
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite("Telemetry: logs and metrics per component, on backends injected per test")
struct TelemetryTests {
    /// Telemetry recording into `metrics` and `log`, for one component.
    static func telemetry(_ metrics: RecordingMetricsFactory, _ log: NIOLockedValueBox<[RecordingLogHandler.Entry]>) -> Telemetry {
        Telemetry(makeLogHandler: { label in RecordingLogHandler(label: label, log: log) }, metricsFactory: metrics)
    }

    @Test func theDownloaderCountsBytesErrorsAndDecodeTime() async throws {
        let metrics = RecordingMetricsFactory()
        let log = NIOLockedValueBox<[RecordingLogHandler.Entry]>([])
        try await withDownloader(configure: { $0.telemetry = Self.telemetry(metrics, log) }) { server, downloader, _ in
            let body = RawRGBATestCoder.encode(width: 4, height: 3)
            server.route("/image") { _, response in await response.respond(headers: [("Content-Type", "image/x-raw")], body: body) }
            server.route("/missing") { _, response in await response.respond(status: 404, body: Array("gone".utf8)) }
            server.route("/junk") { _, response in await response.respond(body: Array("not an image".utf8)) }
            _ = try await downloader.image(from: server.url(for: "/image"))
            _ = await capturedError { () async throws(ImageError) in try await downloader.image(from: server.url(for: "/missing")) }
            _ = await capturedError { () async throws(ImageError) in try await downloader.image(from: server.url(for: "/junk")) }

            #expect(metrics.total("webimage_downloaded_bytes_total") == Int64(body.count + "not an image".utf8.count), "a refused 404 keeps no body")
            #expect(metrics.total("webimage_download_errors_total", [("code", "invalidStatusCode")]) == 1)
            let successes = metrics.values("webimage_decode_duration", [("outcome", "success")])
            let failures = metrics.values("webimage_decode_duration", [("outcome", "failure")])
            #expect(successes.count == 1)
            #expect(failures.count == 1)
            #expect(successes.allSatisfy { $0 >= 0 } && failures.allSatisfy { $0 >= 0 })

            let entries = log.withLockedValue { $0 }
            #expect(entries.contains { $0.label == "webimage.downloader" && $0.message == "download finished" })
            #expect(entries.contains { $0.label == "webimage.downloader" && $0.message == "download failed" })
            #expect(entries.contains { $0.label == "webimage.decoder" && $0.message == "decoded" })
            #expect(entries.contains { $0.label == "webimage.decoder" && $0.message == "decoding failed" })
            #expect(entries.allSatisfy { $0.level <= .debug }, "nothing at info or above")
        }
    }

    @Test func theManagerCountsLoadsByCacheTypeErrorsAndTransformTime() async throws {
        let metrics = RecordingMetricsFactory()
        let log = NIOLockedValueBox<[RecordingLogHandler.Entry]>([])
        try await ManagerTestHarness.run { harness in
            let manager = ImageManager(cache: harness.makeCache(), loader: harness.downloader, telemetry: Self.telemetry(metrics, log))
            harness.serve("/a.png", try ManagerTestImage.png())
            harness.server.route("/missing.png") { _, response in await response.respond(status: 404) }
            let url = harness.url("/a.png")

            #expect(try await manager.image(from: url).cacheType == .none)
            #expect(try await manager.image(from: url).cacheType == .memory)
            let synchronousHit = NIOLockedValueBox<ImageCacheType?>(nil)
            manager.loadImage(with: url) { response in synchronousHit.withLockedValue { $0 = response.cacheType } }
            #expect(synchronousHit.withLockedValue { $0 } == .memory, "answered before loadImage returned")
            await manager.cache.clear(scope: .memory)
            #expect(try await manager.image(from: url).cacheType == .disk)
            _ = await capturedError { () async throws(ImageError) in try await manager.image(from: harness.url("/missing.png")) }
            var transformed = ImageRequest(url: url, options: .fromLoaderOnly)
            transformed.transformer = FlippingImageTransformer(horizontal: true, vertical: false)
            _ = try await manager.image(for: transformed)

            #expect(metrics.total("webimage_loads_total", [("cache_type", "none")]) == 2)
            #expect(metrics.total("webimage_loads_total", [("cache_type", "memory")]) == 2)
            #expect(metrics.total("webimage_loads_total", [("cache_type", "disk")]) == 1)
            #expect(metrics.total("webimage_load_errors_total", [("code", "invalidStatusCode")]) == 1)
            #expect(metrics.values("webimage_transform_duration").count == 1)

            let entries = log.withLockedValue { $0 }
            #expect(entries.contains { $0.label == "webimage.manager" && $0.message == "load failed" })
            #expect(entries.contains { $0.label == "webimage.manager" && $0.message == "load finished" })
            #expect(entries.allSatisfy { $0.level <= .debug }, "nothing at info or above")
        }
    }
}
