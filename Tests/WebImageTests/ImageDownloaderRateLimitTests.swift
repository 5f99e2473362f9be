import Foundation
import LoopbackHTTPServer
import NIOCore
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite("ImageDownloader rate limit")
struct ImageDownloaderRateLimitTests {
    /// One token in a thousand seconds: after the burst, nothing more starts during a test.
    private static func burstOnly(_ burst: Int) -> DownloadRateLimit {
        DownloadRateLimit(startsPerSecond: 0.001, burst: burst)
    }

    @Test func theBucketGivesABurstThenRefillsAtItsRate() {
        let start = NIODeadline.uptimeNanoseconds(1_000_000_000)
        var bucket = TokenBucket(.standard, now: start)
        let burst = (0..<30).filter { _ in bucket.take(at: start) == nil }.count
        #expect(burst == 25)
        #expect(bucket.take(at: start) == .nanoseconds(12_500_000), "1/80 s until the next token")
        let later = start + .nanoseconds(12_500_000)
        #expect(bucket.take(at: later) == nil)
        #expect(bucket.take(at: later) != nil)
        // A quiet second refills the bucket to its capacity, no more.
        let quiet = later + .seconds(1)
        #expect((0..<100).filter { _ in bucket.take(at: quiet) == nil }.count == 25)
    }

    @Test func onlyTheBurstStartsWhileTheBucketIsEmpty() async throws {
        try await withDownloader(configure: {
            $0.rateLimit = Self.burstOnly(3)
            $0.maxConcurrentDownloads = 10
        }) { server, downloader, _ in
            server.route("/r.raw") { _, response in await response.respondWithRawImage() }
            let outcomes = ArrivalLog<Result<ImageLoadResult, ImageError>>()
            for index in 0..<8 {
                downloader.downloadImage(with: ImageLoadRequest(url: server.url(for: "/r.raw?\(index)"))) { outcomes.append($0) }
            }
            try await outcomes.wait(for: 3)
            #expect(outcomes.elements.allSatisfy { (try? $0.get()) != nil })
            #expect(server.requestCount(for: "/r.raw") == 3)
            #expect(downloader.currentDownloadCount == 5)
            downloader.cancelAllDownloads()
            try await outcomes.wait(for: 8)
            #expect(server.requestCount(for: "/r.raw") == 3)
            #expect(outcomes.elements.dropFirst(3).allSatisfy { (try? $0.get()) == nil })
        }
    }

    @Test func loadsCancelledWhileQueuedTakeNoToken() async throws {
        try await withDownloader(configure: {
            $0.rateLimit = Self.burstOnly(2)
            $0.maxConcurrentDownloads = 1
        }) { server, downloader, _ in
            let gate = LoopbackGate()
            server.route("/first.raw") { _, response in
                await gate.wait()
                await response.respondWithRawImage()
            }
            server.route("/r.raw") { _, response in await response.respondWithRawImage() }
            let first = ArrivalLog<Result<ImageLoadResult, ImageError>>()
            downloader.downloadImage(with: ImageLoadRequest(url: server.url(for: "/first.raw"))) { first.append($0) }
            try await server.waitForRequests(to: "/first.raw")
            let tokens = (0..<5).map { index in
                downloader.downloadImage(with: ImageLoadRequest(url: server.url(for: "/r.raw?\(index)"))) { _ in }
            }
            for token in tokens.dropLast() {
                token.cancel()
            }
            let last = ArrivalLog<Result<ImageLoadResult, ImageError>>()
            downloader.downloadImage(with: ImageLoadRequest(url: server.url(for: "/r.raw?4"))) { last.append($0) }
            gate.open()
            try await first.wait(for: 1)
            try await last.wait(for: 1)
            #expect((try? last.elements[0].get())?.image != nil, "the second token went to the load that stayed")
            #expect(server.requests.map { $0.query ?? $0.path } == ["/first.raw", "4"])
        }
    }
}
