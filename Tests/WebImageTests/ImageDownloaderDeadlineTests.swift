import Foundation
import LoopbackHTTPServer
import NIOConcurrencyHelpers
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite("ImageDownloader deadline")
struct ImageDownloaderDeadlineTests {
    @Test func aBodyDrippingOneBytePerSecondFailsAtTheDeadline() async throws {
        // The silence timeout (5 s) never trips: a byte arrives every second. The deadline does.
        try await withDownloader(configure: {
            $0.downloadTimeout = 5
            $0.downloadDeadline = 3
        }) { server, downloader, _ in
            let drip = Drip(server: server, path: "/drip", interval: .seconds(1))
            // The failure is timed where the downloader delivers it, on a queue of the
            // test's own, so a busy cooperative pool cannot delay the reading.
            let started = ContinuousClock.now
            let (result, delivered) = await withCheckedContinuation { continuation in
                downloader.downloadImage(
                    with: ImageLoadRequest(url: server.url(for: "/drip"), decodesImage: false),
                    callbackQueue: DispatchQueue(label: "deadline-test")
                ) { result in continuation.resume(returning: (result, ContinuousClock.now)) }
            }
            drip.stop()
            let elapsed = delivered - started
            guard case .failure(let error) = result else {
                Issue.record("the drip finished before its deadline")
                return
            }
            #expect(error.code == .deadlineExceeded)
            #expect(elapsed >= .seconds(3))
            #expect(elapsed < .seconds(5), "deadline + 2 s")
        }
    }

    @Test func aRequestsOwnDeadlineOverridesTheConfiguration() async throws {
        try await withDownloader(configure: { $0.downloadTimeout = 5 }) { server, downloader, _ in
            let drip = Drip(server: server, path: "/drip", interval: .milliseconds(200))
            let request = ImageLoadRequest(url: server.url(for: "/drip"), decodesImage: false, downloadDeadline: 1)
            let error = await capturedError { () async throws(ImageError) in try await downloader.image(for: request) }
            drip.stop()
            #expect(error?.code == .deadlineExceeded)
            #expect(error?.message.contains("1.0 s") == true)
        }
    }

    @Test func callersSharingATransferKeepTheirOwnDeadlines() async throws {
        // The impatient caller gives up after 0.5 s; the transfer goes on for the patient
        // one (no deadline), which gets the whole body.
        try await withDownloader(configure: { $0.downloadTimeout = 5 }) { server, downloader, _ in
            let drip = Drip(server: server, path: "/drip", interval: .milliseconds(100), length: 20)
            let url = server.url(for: "/drip")
            async let impatient = capturedError { () async throws(ImageError) in
                try await downloader.image(for: ImageLoadRequest(url: url, decodesImage: false, downloadDeadline: 0.5))
            }
            async let patient = downloader.image(for: ImageLoadRequest(url: url, decodesImage: false, downloadDeadline: 0))
            let (error, result) = try await (impatient, patient)
            drip.stop()
            #expect(error?.code == .deadlineExceeded)
            #expect(result.data == Data(repeating: 7, count: 20))
            #expect(server.requestCount(for: "/drip") == 1)
        }
    }

    @Test func aBodyBelowTheMinimumRateFailsOnceItsGracePeriodIsOver() async throws {
        // About ten bytes a second, never silent: without the rate the whole 1,000 bytes
        // would arrive, after a hundred seconds.
        try await withDownloader(configure: {
            $0.downloadTimeout = 30
            $0.downloadDeadline = 0
            $0.minimumTransferRate = DownloadTransferRate(bytesPerSecond: 1000, gracePeriod: 0.5)
        }) { server, downloader, _ in
            let drip = Drip(server: server, path: "/drip", interval: .milliseconds(100))
            let request = ImageLoadRequest(url: server.url(for: "/drip"), decodesImage: false)
            let error = await capturedError { () async throws(ImageError) in try await downloader.image(for: request) }
            drip.stop()
            #expect(error?.code == .timedOut)
            #expect(error?.message.contains("below the minimum of 1000 bytes a second") == true, "\(String(describing: error))")
        }
    }

    @Test func aBodyAboveTheMinimumRateArrivesWhole() async throws {
        try await withDownloader(configure: {
            $0.minimumTransferRate = DownloadTransferRate(bytesPerSecond: 1, gracePeriod: 0.2)
        }) { server, downloader, _ in
            let drip = Drip(server: server, path: "/drip", interval: .milliseconds(20), length: 60)
            let result = try await downloader.image(for: ImageLoadRequest(url: server.url(for: "/drip"), decodesImage: false))
            drip.stop()
            #expect(result.data == Data(repeating: 7, count: 60))
        }
    }

    @Test func aPassedDeadlineIsTransientAndNotBlacklisted() async throws {
        try await ManagerTestHarness.run(configure: {
            $0.downloadTimeout = 5
            $0.downloadDeadline = 0.5
        }) { harness in
            let drip = Drip(server: harness.server, path: "/slow.png", interval: .milliseconds(200))
            let url = harness.url("/slow.png")
            let response = try await harness.load(url)
            drip.stop()
            #expect(response.error?.code == .deadlineExceeded)
            #expect(!harness.manager.isFailedURL(url))
            let error = try #require(response.error)
            #expect(!harness.downloader.shouldBlockFailedURL(url, error: error))
        }
    }
}

/// A route that sends a body one byte at a time, `interval` apart, until it has sent
/// `length` bytes or the test stops it.
private final class Drip: Sendable {
    private let isStopped = NIOLockedValueBox(false)

    init(server: LoopbackHTTPServer, path: String, interval: Duration, length: Int = 1000) {
        server.route(path) { [self] _, response in
            await response.writeHead(status: 200, headers: [("Content-Length", String(length))])
            for _ in 0..<length {
                guard !isStopped.withLockedValue({ $0 }) else { return }
                try? await Task.sleep(for: interval)
                await response.writeBody([7])
            }
            await response.end()
        }
    }

    /// Ends the route's loop at its next byte.
    func stop() {
        isStopped.withLockedValue { $0 = true }
    }
}
