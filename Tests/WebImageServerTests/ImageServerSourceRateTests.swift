import Foundation
import LoopbackHTTPServer
import NIOConcurrencyHelpers
import Testing
import WebImageServer
import WebImageServerTestSupport

/// A source that trickles its body is given up at the minimum transfer rate, and a fetch's
/// deadline stays below its request's (issue 52, item 4).
@Suite struct ImageServerSourceRateTests {
    @Test func aTrickledSourceAnswers504AtTheMinimumRate() async throws {
        // Ten bytes a second for twenty seconds, never silent, well within the source
        // timeout: without the rate the whole body arrives and, not being an image,
        // answers 422.
        try await ImageServerHarness.run(configure: {
            $0.minSourceBytesPerSecond = 1000
            $0.sourceTimeout = 600
        }) { harness in
            let stopped = NIOLockedValueBox(false)
            harness.sources.route("/trickle.png") { _, response in
                await response.writeHead(status: 200, headers: [("Content-Type", "image/png"), ("Content-Length", "200")])
                for _ in 0..<200 {
                    guard !stopped.withLockedValue({ $0 }) else { return }
                    try? await Task.sleep(for: .milliseconds(100))
                    await response.writeBody([7])
                }
                await response.end()
            }
            let answer = try await harness.get(harness.path("resize=10", source: "/trickle.png"))
            stopped.withLockedValue { $0 = true }
            #expect(answer.status == 504)
        }
    }

    @Test func aFetchsDeadlineIsBelowItsRequests() {
        var configuration = ImageServerConfiguration(cacheDirectory: URL(fileURLWithPath: "/nonexistent"))
        configuration.requestTimeout = 10
        configuration.sourceTimeout = 20
        #expect(configuration.sourceDownloadDeadline == 8)
        configuration.sourceTimeout = 3
        #expect(configuration.sourceDownloadDeadline == 3)
    }
}
