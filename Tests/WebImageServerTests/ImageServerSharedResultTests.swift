import Foundation
import LoopbackHTTPServer
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// Identical requests that miss the result cache at the same time share one fetch, decode,
/// transform and encode, and one answer; `format=auto` requests that chose different
/// formats do not. (A piece of work every request has left is cancelled:
/// ``ImageServerEnvelopeTests`` and ``SharedWorkTests``.)
@Suite("ImageServer shared results", .serialized)
struct ImageServerSharedResultTests {
    @Test func identicalRequestsThatMissTogetherShareOneResult() async throws {
        // No decoded source is kept past the work (ImageServerDecodedSourceTests counts those).
        try await ImageServerHarness.run(configure: { $0.decodedSourceMemory = 0 }) { harness in
            let gate = LoopbackGate()
            harness.serve("/a.png", try ImageServerHarness.png(), after: gate)
            let path = harness.path("resize=20|format=png", source: "/a.png")
            let requests = (0..<8).map { _ in Task { try await harness.get(path) } }
            // Every request waits for the one piece of work before the source answers.
            #expect(try await harness.eventuallyShows("webimage_result_work_joined_total 7"))
            gate.open()
            var answers: [ImageServerClient.Answer] = []
            for request in requests { answers.append(try await request.value) }
            #expect(answers.allSatisfy { $0.status == 200 })
            #expect(Set(answers.map(\.body)).count == 1, "every request hears the same bytes")
            #expect(Set(answers.map { $0.headers["ETag"] }).count == 1)
            #expect(harness.sources.requestCount(for: "/a.png") == 1)
            let metrics = try await harness.metrics()
            #expect(metrics.contains("webimage_result_cache_total{result=\"miss\"} 8"))
            #expect(metrics.contains("webimage_result_work_total 1"), "one decode, transform and encode")
            #expect(metrics.contains("webimage_memory_reserved_bytes 0"), "the work gave back what it was admitted")
        }
    }

    @Test func automaticFormatsChosenApartAreMadeApart() async throws {
        try await ImageServerHarness.run { harness in
            let gate = LoopbackGate()
            harness.serve("/a.png", try ImageServerHarness.png(), after: gate)
            let path = harness.path("resize=20|format=auto", source: "/a.png")
            let webP = Task { try await harness.get(path, headers: [("Accept", "image/webp,*/*")]) }
            let other = Task { try await harness.get(path, headers: [("Accept", "image/png")]) }
            // Both results are being made before the source answers.
            #expect(try await harness.eventuallyShows("webimage_result_work_total 2"))
            gate.open()
            let (webPAnswer, otherAnswer) = (try await webP.value, try await other.value)
            #expect(webPAnswer.status == 200 && otherAnswer.status == 200)
            #expect(webPAnswer.headers["Content-Type"] == ["image/webp"])
            #expect(otherAnswer.headers["Content-Type"] == ["image/png"])
            #expect(harness.sources.requestCount(for: "/a.png") == 1, "the source's fetch is still shared")
            #expect(!(try await harness.metrics()).contains("webimage_result_work_joined_total"))
        }
    }
}
