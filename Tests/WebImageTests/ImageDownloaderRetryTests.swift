import Foundation
import LoopbackHTTPServer
import NIOConcurrencyHelpers
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite("ImageDownloader retries")
struct ImageDownloaderRetryTests {
    /// A policy that retries at once, so that no test waits on backoff.
    private static func quick(attempts: Int) -> DownloadRetryPolicy {
        DownloadRetryPolicy(maximumAttempts: attempts, initialDelay: 0.001, jitter: 0)
    }

    @Test func a503WithRetryAfterIsRetriedAfterAboutASecondThenSucceeds() async throws {
        try await withDownloader(configure: { $0.retryPolicy = .transientFailures }) { server, downloader, _ in
            let arrivals = ArrivalLog<ContinuousClock.Instant>()
            server.route("/busy.raw") { _, response in
                arrivals.append(.now)
                if arrivals.count == 1 {
                    await response.respond(status: 503, headers: [("Retry-After", "1")])
                } else {
                    await response.respondWithRawImage()
                }
            }
            let log = DownloadEventLog(downloader)
            let result = try await downloader.image(from: server.url(for: "/busy.raw"))
            #expect(result.image?.pixelSize == PixelSize(width: 4, height: 3))
            #expect(server.requestCount(for: "/busy.raw") == 2)
            let times = arrivals.elements
            let gap = times[1] - times[0]
            #expect(gap >= .milliseconds(900), "waited \(gap)")
            #expect(gap < .seconds(60), "waited \(gap)")
            try await log.retries.wait(for: 1)
            let retry = try #require(log.retries.elements.first)
            #expect(retry.attempt == 2 && retry.delay == 1)
            #expect(retry.error.statusCode == 503)
        }
    }

    @Test func a404AndA500AreRequestedExactlyOnce() async throws {
        try await withDownloader(configure: { $0.retryPolicy = Self.quick(attempts: 5) }) { server, downloader, _ in
            server.route("/error") { request, response in
                await response.respond(status: Int(request.query ?? "") ?? 500, headers: [("Retry-After", "0")])
            }
            let log = DownloadEventLog(downloader)
            for status in [404, 400, 403, 500] {
                let error = await capturedError { () async throws(ImageError) in
                    try await downloader.image(from: server.url(for: "/error?\(status)"))
                }
                #expect(error?.code == .invalidStatusCode && error?.statusCode == status)
            }
            #expect(server.requestCount(for: "/error") == 4)
            #expect(log.retries.count == 0)
        }
    }

    @Test func everyTransientStatusIsRetriedUntilTheAttemptsRunOut() async throws {
        try await withDownloader(configure: { $0.retryPolicy = Self.quick(attempts: 4) }) { server, downloader, _ in
            server.route("/flaky") { request, response in
                await response.respond(status: Int(request.query ?? "") ?? 500)
            }
            let log = DownloadEventLog(downloader)
            for (index, status) in [408, 429, 502, 503, 504].enumerated() {
                let error = await capturedError { () async throws(ImageError) in
                    try await downloader.image(from: server.url(for: "/flaky?\(status)"))
                }
                #expect(error?.statusCode == status)
                #expect(server.requestCount(for: "/flaky") == 4 * (index + 1), "status \(status)")
            }
            try await log.retries.wait(for: 15)
            #expect(log.retriedAttempts == Array(repeating: [2, 3, 4], count: 5).flatMap { $0 })
        }
    }

    @Test func aBodyCutOffMidwayIsDownloadedAgain() async throws {
        try await withDownloader(configure: { $0.retryPolicy = Self.quick(attempts: 2) }) { server, downloader, _ in
            let body = RawRGBATestCoder.encode(width: 8, height: 8)
            let count = NIOLockedValueBox(0)
            server.route("/cut.raw") { _, response in
                let attempt = count.withLockedValue {
                    $0 += 1
                    return $0
                }
                await response.writeHead(status: 200, headers: [("Content-Type", "image/x-raw"), ("Content-Length", String(body.count))])
                if attempt == 1 {
                    await response.writeBody(body[..<(body.count / 2)])
                    await response.dropConnection()
                } else {
                    await response.writeBody(body)
                    await response.end()
                }
            }
            let log = DownloadEventLog(downloader)
            let result = try await downloader.image(from: server.url(for: "/cut.raw"))
            #expect(result.data == Data(body))
            #expect(result.image?.pixelSize == PixelSize(width: 8, height: 8))
            #expect(server.requestCount(for: "/cut.raw") == 2)
            try await log.retries.wait(for: 1)
            #expect(log.retries.elements.first?.error.code == .connectionLost)
        }
    }

    @Test func aRefusedConnectionIsRetriedAndStillFailsTyped() async throws {
        let closed = try RefusingPort()
        let url = try #require(URL(string: "http://127.0.0.1:\(closed.port)/gone"))
        try await withDownloader(configure: { $0.retryPolicy = Self.quick(attempts: 3) }) { _, downloader, _ in
            let log = DownloadEventLog(downloader)
            let error = await capturedError { () async throws(ImageError) in try await downloader.image(from: url) }
            #expect(error?.code == .cannotConnect)
            try await log.retries.wait(for: 2)
            #expect(log.retriedAttempts == [2, 3])
        }
    }

    @Test func aRetryAfterLongerThanTheCapEndsTheDownload() async throws {
        try await withDownloader(configure: { $0.retryPolicy = .transientFailures }) { server, downloader, _ in
            server.route("/later") { _, response in
                await response.respond(status: 429, headers: [("Retry-After", "3600")])
            }
            let error = await capturedError { () async throws(ImageError) in try await downloader.image(from: server.url(for: "/later")) }
            #expect(error?.statusCode == 429)
            #expect(server.requestCount(for: "/later") == 1)
        }
    }

    @Test func theRequestsPolicyOverridesTheDownloaders() async throws {
        try await withDownloader { server, downloader, _ in
            server.route("/busy") { _, response in await response.respond(status: 503) }
            let error = await capturedError { () async throws(ImageError) in try await downloader.image(from: server.url(for: "/busy")) }
            #expect(error?.statusCode == 503)
            #expect(server.requestCount(for: "/busy") == 1, "no retries by default")
            let request = ImageLoadRequest(url: server.url(for: "/busy"), retryPolicy: Self.quick(attempts: 3))
            _ = await capturedError { () async throws(ImageError) in try await downloader.image(for: request) }
            #expect(server.requestCount(for: "/busy") == 4)
        }
    }

    @Test func cancellingDuringTheWaitEndsTheDownloadAndFreesTheSlot() async throws {
        try await withDownloader(configure: {
            $0.retryPolicy = DownloadRetryPolicy(maximumAttempts: 3, initialDelay: 600, maximumDelay: 600)
            $0.maxConcurrentDownloads = 1
        }) { server, downloader, _ in
            server.route("/busy") { _, response in await response.respond(status: 503) }
            server.route("/ok.raw") { _, response in await response.respondWithRawImage() }
            let log = DownloadEventLog(downloader)
            let outcome = ArrivalLog<Result<ImageLoadResult, ImageError>>()
            let token = downloader.downloadImage(with: ImageLoadRequest(url: server.url(for: "/busy"))) { outcome.append($0) }
            try await log.retries.wait(for: 1)
            #expect(downloader.currentDownloadCount == 1, "the waiting transfer keeps its slot")
            token.cancel()
            try await outcome.wait(for: 1)
            #expect(throws: ImageError.self) { try outcome.elements[0].get() }
            if case .failure(let error) = outcome.elements[0] {
                #expect(error.code == .cancelled)
            }
            // The only slot is free again: the next download runs.
            let result = try await downloader.image(from: server.url(for: "/ok.raw"))
            #expect(result.image != nil)
            #expect(server.requestCount(for: "/busy") == 1)
        }
    }

    @Test func backoffGrowsExponentiallyWithinItsCapAndJitter() {
        let policy = DownloadRetryPolicy(maximumAttempts: 10, initialDelay: 0.5, backoffMultiplier: 2, maximumDelay: 3, jitter: 0)
        let delays = (1..<10).map { policy.delay(afterAttempt: $0, retryAfter: nil) }
        #expect(delays == [0.5, 1, 2, 3, 3, 3, 3, 3, 3])
        #expect(policy.delay(afterAttempt: 10, retryAfter: nil) == nil)
        var jittered = policy
        jittered.jitter = 0.25
        for _ in 0..<100 {
            let delay = jittered.delay(afterAttempt: 2, retryAfter: nil) ?? -1
            #expect(delay > 0.75 && delay <= 1)
        }
    }

    @Test func retryAfterReadsSecondsAndHTTPDates() {
        let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        #expect(DownloadRetryPolicy.seconds(inRetryAfter: " 7 ", now: now) == 7)
        #expect(DownloadRetryPolicy.seconds(inRetryAfter: "Sun, 06 Nov 1994 08:49:47 GMT", now: now) == 10)
        #expect(DownloadRetryPolicy.seconds(inRetryAfter: "Sun, 06 Nov 1994 08:00:00 GMT", now: now) == 0)
        #expect(DownloadRetryPolicy.seconds(inRetryAfter: "soon", now: now) == nil)
        #expect(DownloadRetryPolicy.seconds(inRetryAfter: "-3", now: now) == nil)
        let policy = DownloadRetryPolicy(maximumAttempts: 2, maximumRetryAfter: 30)
        #expect(policy.delay(afterAttempt: 1, retryAfter: "Sun, 06 Nov 1994 08:50:07 GMT", now: now) == 30)
        #expect(policy.delay(afterAttempt: 1, retryAfter: "31", now: now) == nil)
    }

    @Test func onlyPassingFailuresCountAsTransient() {
        let policy = DownloadRetryPolicy.transientFailures
        for code in [ImageError.Code.timedOut, .cannotConnect, .connectionLost] {
            #expect(policy.isTransient(ImageError(code, "")))
        }
        for code in [ImageError.Code.cancelled, .deadlineExceeded, .badImageData, .tlsFailure, .cannotFindHost, .responseTooLarge] {
            #expect(!policy.isTransient(ImageError(code, "")))
        }
        #expect(!policy.isTransient(ImageError(.invalidStatusCode, "", statusCode: 404)))
        #expect(policy.isTransient(ImageError(.invalidStatusCode, "", statusCode: 429)))
    }
}
