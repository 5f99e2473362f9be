import Foundation
import LoopbackHTTPServer
import Testing

@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// SDWebImage's prefetcher reports each URL (`didPrefetchURL:`) before the progress block,
/// and a cancelled token leaves the running tokens when `cancel` returns.
@Suite("ImagePrefetcher callback order and cancelled tokens", .timeLimit(.minutes(15)))
struct ImagePrefetcherCallbackOrderTests {
    @Test func eachURLIsReportedBeforeTheProgressThatCountsIt() async throws {
        try await ManagerTestHarness.run { harness in
            let paths = ["/a0.png", "/a1.png", "/a2.png"]
            for path in paths {
                harness.serve(path, try ManagerTestImage.png())
            }
            let prefetcher = ImagePrefetcher(manager: harness.manager)
            let queue = DispatchQueue(label: "prefetch-order-test.callbacks")
            let events = ArrivalLog<String>()
            let report = PrefetchReport()
            prefetcher.prefetch(
                paths.map(harness.url), callbackQueue: queue,
                progress: { finished, total in events.append("progress \(finished)/\(total)") },
                didPrefetch: { _, finished, total in events.append("url \(finished)/\(total)") },
                completion: report.recordCompletion)
            try await report.waitForCompletion()
            #expect(
                events.elements == [
                    "url 1/3", "progress 1/3", "url 2/3", "progress 2/3", "url 3/3", "progress 3/3",
                ])
        }
    }

    @Test func aCancelledTokenLeavesTheRunningTokensWhenCancelReturns() async throws {
        try await ManagerTestHarness.run { harness in
            let gate = LoopbackGate()
            harness.serve("/slow.png", try ManagerTestImage.png(), after: gate)
            let prefetcher = ImagePrefetcher(manager: harness.manager)
            let report = PrefetchReport()
            let token = prefetcher.prefetch([harness.url("/slow.png")], completion: report.recordCompletion)
            try await harness.server.waitForRequests(to: "/slow.png")
            #expect(prefetcher.runningTokens.count == 1)

            token.cancel()
            #expect(prefetcher.runningTokens.isEmpty, "the token left when cancel() returned")
            gate.open()
            try await report.waitForCompletion()
            #expect(report.completions.elements == [[0, 0]])
            #expect(prefetcher.runningTokens.isEmpty)
        }
    }
}
