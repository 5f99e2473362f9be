import Foundation
import LoopbackHTTPServer
import NIOConcurrencyHelpers
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite("ImagePrefetcher", .timeLimit(.minutes(15)))
struct ImagePrefetcherTests {
    @Test func countsFinishedAndSkippedURLs() async throws {
        try await ManagerTestHarness.run { harness in
            let good = (0..<4).map { "/good\($0).png" }
            for (index, path) in good.enumerated() {
                harness.serve(path, try ManagerTestImage.png(tint: UInt8(index)))
            }
            let urls = (good + ["/missing0.png", "/missing1.png"]).map(harness.url)
            let prefetcher = ImagePrefetcher(manager: harness.manager)
            let report = PrefetchReport()
            let queue = DispatchQueue(label: "prefetch-test.callbacks")
            prefetcher.prefetch(urls, callbackQueue: queue, progress: report.recordProgress, completion: report.recordCompletion)
            try await report.waitForCompletion()
            #expect(report.completions.elements == [[6, 2]])
            #expect(report.progress.values == (1...6).map { [$0, 6] })
            for url in urls.prefix(4) {
                #expect(await harness.cache.diskImageExists(forKey: url.absoluteString))
            }
            #expect(await harness.cache.totalDiskCount() == 4)

            let second = PrefetchReport()
            prefetcher.prefetch(Array(urls.prefix(2)), callbackQueue: queue, progress: second.recordProgress, completion: second.recordCompletion)
            try await second.waitForCompletion()
            #expect(second.completions.elements == [[2, 0]])
            #expect(report.completions.elements.count == 1, "the first completion ran exactly once")
            #expect(harness.server.requests.count == 6, "cached URLs are not fetched again")
        }
    }

    @Test func theAsyncFormReturnsTheCounts() async throws {
        try await ManagerTestHarness.run { harness in
            harness.serve("/a.png", try ManagerTestImage.png())
            let prefetcher = ImagePrefetcher(manager: harness.manager)
            let progress = DownloadCallbackRecorder<Int>()
            let counts = await prefetcher.prefetch([harness.url("/a.png"), harness.url("/gone.png")]) { finished, _ in
                progress.append(finished)
            }
            #expect(counts.finished == 2 && counts.skipped == 1)
            #expect(progress.values == [1, 2])
            let empty = await prefetcher.prefetch([])
            #expect(empty.finished == 0 && empty.skipped == 0)
        }
    }

    @Test func emptyListsCompleteWithZeroCounts() async throws {
        try await ManagerTestHarness.run { harness in
            let report = PrefetchReport()
            ImagePrefetcher(manager: harness.manager).prefetch([], progress: report.recordProgress, completion: report.recordCompletion)
            try await report.waitForCompletion()
            #expect(report.completions.elements == [[0, 0]])
            #expect(report.progress.values.isEmpty)
        }
    }

    @Test func atMostMaxConcurrentPrefetchCountLoadsRunAtOnce() async throws {
        try await ManagerTestHarness.run { harness in
            let gate = LoopbackGate()
            let inFlight = NIOLockedValueBox((current: 0, highest: 0))
            let image = Array(try ManagerTestImage.png())
            for index in 0..<8 {
                harness.server.route("/\(index).png") { _, response in
                    inFlight.withLockedValue {
                        $0.current += 1
                        $0.highest = max($0.highest, $0.current)
                    }
                    await gate.wait()
                    inFlight.withLockedValue { $0.current -= 1 }
                    await response.respond(headers: [("Content-Type", "image/png")], body: image)
                }
            }
            harness.serve("/sentinel.png", Data(image))
            let loader = CountingImageLoader(harness.downloader)
            let manager = harness.makeManager(loader: loader)
            let prefetcher = ImagePrefetcher(manager: manager)
            #expect(prefetcher.maxConcurrentPrefetchCount == 3)
            #expect(prefetcher.options == .lowPriority)
            prefetcher.maxConcurrentPrefetchCount = 2
            let report = PrefetchReport()
            prefetcher.prefetch((0..<8).map { harness.url("/\($0).png") }, completion: report.recordCompletion)
            try await harness.server.waitForRequests(to: "/0.png")
            try await harness.server.waitForRequests(to: "/1.png")
            // A whole round trip of another load, time enough for a third prefetch to start.
            #expect(try await harness.load(harness.url("/sentinel.png"), with: manager).image != nil)
            #expect(loader.loadCount == 3)
            #expect(harness.server.requests.count == 3)
            gate.open()
            try await report.waitForCompletion()
            #expect(report.completions.elements == [[8, 0]])
            #expect(inFlight.withLockedValue { $0.highest } == 2)
            #expect(harness.server.requests.count == 9)
        }
    }

    @Test func aLoadCancelledUnderThePrefetcherCountsAsSkipped() async throws {
        try await ManagerTestHarness.run { harness in
            let gate = LoopbackGate()
            harness.serve("/stalled.png", try ManagerTestImage.png(), after: gate)
            harness.serve("/b.png", try ManagerTestImage.png())
            let prefetcher = ImagePrefetcher(manager: harness.manager)
            prefetcher.maxConcurrentPrefetchCount = 1
            let report = PrefetchReport()
            prefetcher.prefetch([harness.url("/stalled.png"), harness.url("/b.png")], progress: report.recordProgress, completion: report.recordCompletion)
            try await harness.server.waitForRequests(to: "/stalled.png")
            harness.downloader.cancelAllDownloads()
            try await report.waitForCompletion()
            #expect(report.completions.elements == [[2, 1]])
            #expect(report.progress.values == [[1, 2], [2, 2]])
            #expect(await harness.cache.diskImageExists(forKey: harness.url("/b.png").absoluteString))
            gate.open()
        }
    }

    @Test func cancellingStopsTheRestButNotACallersLoad() async throws {
        try await ManagerTestHarness.run { harness in
            let gate = LoopbackGate()
            for path in ["/shared.png", "/b.png", "/c.png"] {
                harness.serve(path, try ManagerTestImage.png(tint: 9), after: gate)
            }
            let loader = CountingImageLoader(harness.downloader)
            let manager = harness.makeManager(loader: loader)
            let shared = harness.url("/shared.png")
            let caller = ImageResponseRecorder()
            manager.loadImage(with: shared, completion: caller.record)
            try await harness.server.waitForRequests(to: "/shared.png")

            let prefetcher = ImagePrefetcher(manager: manager)
            prefetcher.maxConcurrentPrefetchCount = 1
            let report = PrefetchReport()
            prefetcher.prefetch([shared, harness.url("/b.png"), harness.url("/c.png")], progress: report.recordProgress, completion: report.recordCompletion)
            try await loader.wait(forLoads: 2)
            prefetcher.cancelPrefetching()
            try await report.waitForCompletion()
            #expect(report.completions.elements == [[0, 0]])
            #expect(report.progress.values.isEmpty)

            gate.open()
            try await caller.wait(for: 1)
            #expect(caller.responses[0].image?.bitmap.rgba8(x: 0, y: 0).blue == 9)
            #expect(harness.server.connectionsAbortedByClient == 0)
            #expect(harness.server.requestCount(for: "/shared.png") == 1)
            #expect(harness.server.requestCount(for: "/b.png") == 0 && harness.server.requestCount(for: "/c.png") == 0)
        }
    }
}
