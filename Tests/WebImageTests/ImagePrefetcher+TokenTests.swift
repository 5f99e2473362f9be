import Foundation
import LoopbackHTTPServer
import NIOConcurrencyHelpers
import Testing

@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// SDWebImage 5's prefetch tokens and per-URL callbacks.
@Suite("ImagePrefetcher tokens", .timeLimit(.minutes(15)))
struct ImagePrefetcherTokenTests {
    @Test func aTokenCancelsItsOwnCallOnlyAndEachURLIsReported() async throws {
        try await ManagerTestHarness.run { harness in
            let gate = LoopbackGate()
            for path in ["/a0.png", "/a1.png", "/a2.png"] {
                harness.serve(path, try ManagerTestImage.png(), after: gate)
            }
            for path in ["/b0.png", "/b1.png"] {
                harness.serve(path, try ManagerTestImage.png(), after: gate)
            }
            let loader = CountingImageLoader(harness.downloader)
            let prefetcher = ImagePrefetcher(manager: harness.makeManager(loader: loader))
            prefetcher.maxConcurrentPrefetchCount = 1
            let queue = DispatchQueue(label: "prefetch-token-test.callbacks")
            let first = PrefetchReport(), second = PrefetchReport()
            let perURL = DownloadCallbackRecorder<String>()
            let aURLs = ["/a0.png", "/a1.png", "/a2.png"].map(harness.url)
            let bURLs = ["/b0.png", "/b1.png"].map(harness.url)

            let tokenA = prefetcher.prefetch(aURLs, callbackQueue: queue, progress: first.recordProgress, completion: first.recordCompletion)
            let tokenB = prefetcher.prefetch(
                bURLs, callbackQueue: queue, progress: second.recordProgress,
                didPrefetch: { url, finished, total in perURL.append("\(url.path) \(finished)/\(total)") },
                completion: second.recordCompletion)
            #expect(tokenA.urls == aURLs && tokenB.urls == bURLs)
            #expect(prefetcher.runningTokens.map(\.urls) == [aURLs, bURLs])
            try await harness.server.waitForRequests(to: "/a0.png")
            try await harness.server.waitForRequests(to: "/b0.png")

            tokenA.cancel()
            #expect(tokenA.isCancelled && !tokenB.isCancelled)
            try await first.waitForCompletion()
            #expect(first.completions.elements == [[0, 0]], "the cancelled call still completes once")
            #expect(prefetcher.runningTokens.map(\.urls) == [bURLs])

            gate.open()
            try await second.waitForCompletion()
            #expect(second.completions.elements == [[2, 0]])
            #expect(perURL.values == ["/b0.png 1/2", "/b1.png 2/2"])
            #expect(second.progress.values == [[1, 2], [2, 2]])
            #expect(prefetcher.runningTokens.isEmpty)
            #expect(harness.server.requestCount(for: "/a1.png") == 0 && harness.server.requestCount(for: "/a2.png") == 0)
            #expect(await harness.cache.containsImage(forKey: bURLs[1].absoluteString, scope: .disk) == .disk)
        }
    }
}
