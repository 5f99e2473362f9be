import Foundation
import LoopbackHTTPServer
import NIOConcurrencyHelpers
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite("ImageDownloader resumable downloads")
struct ImageDownloaderResumeTests {
    private static let quickRetries = DownloadRetryPolicy(maximumAttempts: 10, initialDelay: 0.001, jitter: 0)

    /// The offset a `Range: bytes=<first>-` request asks from; 0 without one.
    private static func rangeStart(of request: LoopbackRequest) -> Int {
        guard let range = request.header("Range"), range.hasPrefix("bytes=") else { return 0 }
        return Int(range.dropFirst(6).prefix { $0 != "-" }) ?? 0
    }

    @Test(arguments: [
        ([("ETag", "\"v1\"")], "\"v1\""),
        ([("ETag", "W/\"weak\""), ("Last-Modified", "Sun, 06 Nov 1994 08:49:37 GMT")], "Sun, 06 Nov 1994 08:49:37 GMT"),
    ])
    func aBodyCutOffMidwayIsResumedWithRangeAndIfRange(validators: [(String, String)], ifRange: String) async throws {
        try await withDownloader(configure: { $0.retryPolicy = Self.quickRetries }) { server, downloader, _ in
            let body = RawRGBATestCoder.encode(width: 20, height: 10)
            let half = body.count / 2
            let count = NIOLockedValueBox(0)
            server.route("/cut.raw") { request, response in
                let first = count.withLockedValue {
                    $0 += 1
                    return $0 == 1
                }
                await response.respond(
                    to: request, with: body, allowsRanges: true,
                    headers: [("Content-Type", "image/x-raw")] + validators, droppingAfter: first ? half : nil)
            }
            let log = DownloadEventLog(downloader)
            let result = try await downloader.image(from: server.url(for: "/cut.raw"))
            #expect(result.data == Data(body))
            #expect(result.image?.pixelSize == PixelSize(width: 20, height: 10))
            #expect(result.response?.statusCode == 200, "the response the bytes belong to")
            #expect(result.metrics?.statusCode == 200, "the metrics show the response the bytes belong to")
            #expect(result.metrics?.attemptCount == 2)
            // This route's If-Range never matches (it names no ETag to the helper): the whole body again.
            #expect(result.metrics?.bytesReceived == half + body.count, "every byte received, over both attempts")
            let requests = server.requests
            #expect(requests.count == 2)
            #expect(requests[0].header("Range") == nil)
            #expect(requests[1].header("Range") == "bytes=\(half)-")
            #expect(requests[1].header("If-Range") == ifRange)
            try await log.retries.wait(for: 1)
            #expect(log.retries.elements.map(\.resumeOffset) == [half])
            #expect(downloader.keptResumableBytes == 0)
        }
    }

    @Test func aChangedImageAnswers200AndTheDownloadStartsOver() async throws {
        try await withDownloader(configure: { $0.retryPolicy = Self.quickRetries }) { server, downloader, _ in
            let old = RawRGBATestCoder.encode(width: 20, height: 10)
            let new = RawRGBATestCoder.encode(width: 12, height: 12)
            let count = NIOLockedValueBox(0)
            server.route("/changed.raw") { request, response in
                let first = count.withLockedValue {
                    $0 += 1
                    return $0 == 1
                }
                await response.respond(
                    to: request, with: first ? old : new, eTag: first ? "\"old\"" : "\"new\"", allowsRanges: true,
                    headers: [("Content-Type", "image/x-raw")], droppingAfter: first ? old.count / 2 : nil)
            }
            let result = try await downloader.image(from: server.url(for: "/changed.raw"))
            #expect(result.data == Data(new))
            #expect(result.image?.pixelSize == PixelSize(width: 12, height: 12))
            #expect(server.requests.last?.header("If-Range") == "\"old\"")
        }
    }

    @Test func aRangeThatDoesNotContinueTheBytesIsDownloadedWhole() async throws {
        try await withDownloader(configure: { $0.retryPolicy = Self.quickRetries }) { server, downloader, _ in
            let body = RawRGBATestCoder.encode(width: 20, height: 10)
            let count = NIOLockedValueBox(0)
            server.route("/skewed.raw") { request, response in
                let attempt = count.withLockedValue {
                    $0 += 1
                    return $0
                }
                switch attempt {
                case 1:
                    await response.respond(
                        to: request, with: body, eTag: "\"v1\"", allowsRanges: true, droppingAfter: body.count / 2)
                case 2:
                    // Claims to continue from byte 10, which the client does not hold.
                    let part = Array(body[10...])
                    await response.respond(
                        status: 206, headers: [("Content-Range", "bytes 10-\(body.count - 1)/\(body.count)")], body: part)
                default:
                    await response.respond(to: request, with: body, eTag: "\"v1\"", allowsRanges: true, headers: [("Content-Type", "image/x-raw")])
                }
            }
            let result = try await downloader.image(from: server.url(for: "/skewed.raw"))
            #expect(result.data == Data(body))
            let requests = server.requests
            #expect(requests.count == 3)
            #expect(requests[2].header("Range") == nil)
        }
    }

    @Test func aRefusedRangeIsDownloadedWhole() async throws {
        try await withDownloader(configure: { $0.retryPolicy = Self.quickRetries }) { server, downloader, _ in
            let body = RawRGBATestCoder.encode(width: 20, height: 10)
            server.route("/refused.raw") { request, response in
                if request.header("Range") != nil {
                    await response.respond(status: 416, headers: [("Content-Range", "bytes */\(body.count)")])
                    return
                }
                let first = server.requestCount(for: "/refused.raw") == 1
                await response.respond(
                    to: request, with: body, eTag: "\"v1\"", allowsRanges: true, headers: [("Content-Type", "image/x-raw")],
                    droppingAfter: first ? body.count / 2 : nil)
            }
            let result = try await downloader.image(from: server.url(for: "/refused.raw"))
            #expect(result.data == Data(body))
            #expect(server.requests.map { $0.header("Range") != nil } == [false, true, false])
            #expect(downloader.keptResumableBytes == 0)
        }
    }

    @Test func withoutRangeSupportOrBudgetTheRetryDownloadsTheWholeBody() async throws {
        for (allowsRanges, budget) in [(false, 32 << 20), (true, 10)] {
            try await withDownloader(configure: {
                $0.retryPolicy = Self.quickRetries
                $0.maximumResumableBytes = budget
            }) { server, downloader, _ in
                let body = RawRGBATestCoder.encode(width: 20, height: 10)
                let count = NIOLockedValueBox(0)
                server.route("/whole.raw") { request, response in
                    let first = count.withLockedValue {
                        $0 += 1
                        return $0 == 1
                    }
                    await response.respond(
                        to: request, with: body, eTag: "\"v1\"", allowsRanges: allowsRanges,
                        headers: [("Content-Type", "image/x-raw")], droppingAfter: first ? body.count / 2 : nil)
                }
                let log = DownloadEventLog(downloader)
                let result = try await downloader.image(from: server.url(for: "/whole.raw"))
                #expect(result.data == Data(body))
                #expect(server.requests.map { $0.header("Range") } == [nil, nil], "ranges \(allowsRanges), budget \(budget)")
                try await log.retries.wait(for: 1)
                #expect(log.retries.elements.map(\.resumeOffset) == [0])
                #expect(downloader.keptResumableBytes == 0)
            }
        }
    }

    @Test(arguments: [true, false])
    func twoHundredImagesSurviveAServerThatDropsEveryFifthResponse(allowsRanges: Bool) async throws {
        try await withDownloader(configure: { $0.retryPolicy = Self.quickRetries }) { server, downloader, _ in
            let images = (0..<200).map { RawRGBATestCoder.encode(width: 24 + $0 % 40, height: 24 + $0 % 20) }
            let total = images.reduce(0) { $0 + $1.count }
            // Responses so far, and body bytes sent (those of dropped responses included).
            let served = NIOLockedValueBox((responses: 0, drops: 0, bytes: 0))
            let routesDone = ArrivalLog<Int>()
            server.route("/img") { request, response in
                let body = images[Int(request.query ?? "") ?? 0]
                let start = Self.rangeStart(of: request)
                let drops = served.withLockedValue { served -> Bool in
                    served.responses += 1
                    guard served.responses % 5 == 0 else { return false }
                    served.drops += 1
                    return true
                }
                // A dropped response stops past half of what it sends: past half of the
                // body for a whole one.
                let remaining = body.count - start
                let cut = drops ? remaining / 2 + (remaining / 3) * (served.withLockedValue { $0.drops } % 2) : nil
                let sent = await response.respond(
                    to: request, with: body, eTag: "\"\(body.count)\"", allowsRanges: allowsRanges,
                    headers: [("Content-Type", "image/x-raw")], droppingAfter: cut)
                served.withLockedValue { $0.bytes += sent }
                routesDone.append(sent)
            }
            let log = DownloadEventLog(downloader)
            let results = try await withThrowingTaskGroup(of: (Int, ImageLoadResult).self) { group in
                for index in images.indices {
                    group.addTask { (index, try await downloader.image(from: server.url(for: "/img?\(index)"))) }
                }
                var results: [Int: ImageLoadResult] = [:]
                for try await (index, result) in group {
                    results[index] = result
                }
                return results
            }
            #expect(results.count == 200)
            for (index, result) in results {
                #expect(result.data == Data(images[index]), "image \(index)")
                #expect(result.image?.pixelSize == PixelSize(width: 24 + index % 40, height: 24 + index % 20))
            }
            // A route may still be returning after its client has the bytes.
            try await routesDone.wait(for: served.withLockedValue { $0.responses })
            let (responses, drops, bytes) = served.withLockedValue { ($0.responses, $0.drops, $0.bytes) }
            #expect(responses == 200 + drops)
            #expect(drops >= 40)
            // Every dropped response was retried (a connection the pool found closed may
            // add a retry that no response saw).
            try await log.retries.wait(for: drops)
            let resumed = log.retries.elements.count { $0.resumeOffset > 0 }
            if allowsRanges {
                #expect(Double(bytes) <= 1.3 * Double(total), "sent \(bytes) bytes for \(total)")
                // A dropped response had sent its head and part of its body: its retry resumes.
                #expect(resumed * 10 >= drops * 9, "\(resumed) of \(drops) drops resumed")
            } else {
                #expect(bytes > total)
                #expect(resumed == 0)
            }
            #expect(downloader.keptResumableBytes == 0)
            print("flaky server, ranges \(allowsRanges): \(drops) of \(responses) responses dropped, \(bytes) body bytes sent for \(total) (\(Double(bytes) / Double(total))x)")
        }
    }
}
