import Foundation
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// `raw` answers the source's bytes untouched, under every rule a transform's source is
/// held to: the allow-list, the address policy, the byte and pixel limits, and bytes that
/// are an image (of a raster format) whatever type the source claims.
@Suite("ImageServer raw", .serialized, .timeLimit(.minutes(15)))
struct ImageServerRawTests {
    @Test func theSourceIsAnsweredUntouchedWithTheTypeItsBytesAre() async throws {
        try await ImageServerHarness.run { harness in
            let png = try ImageServerHarness.png()
            harness.serve("/a.png", png, contentType: "application/octet-stream")
            let answer = try await harness.get(harness.path("raw|filename=a.png", source: "/a.png"))
            #expect(answer.status == 200)
            #expect(answer.body == png)
            #expect(answer.headers.first(name: "Content-Type") == "image/png")
            #expect(answer.headers.first(name: "Content-Disposition") == "inline; filename=\"a.png\"; filename*=UTF-8''a.png")
            let eTag = try #require(answer.headers.first(name: "ETag"))
            let again = try await harness.get(harness.path("raw", source: "/a.png"), headers: [("If-None-Match", eTag)])
            #expect(again.status == 304)
            #expect(harness.sources.requestCount(for: "/a.png") == 1, "the source cache answers the second time")
        }
    }

    @Test func aSourceThatIsNotARasterImageIsRefused() async throws {
        try await ImageServerHarness.run { harness in
            harness.serve("/text", Data("not an image".utf8))
            harness.serve("/a.svg", Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><script>alert(1)</script></svg>"#.utf8))
            for source in ["/text", "/a.svg"] {
                let answer = try await harness.get(harness.path("raw", source: source))
                // Without a decode worker, an SVG is not read at all: 415.
                #expect(answer.status == (source == "/a.svg" ? 415 : 422), "\(source)")
                #expect(answer.headers.first(name: "Content-Type") == "application/json", "\(source)")
            }
        }
    }

    @Test func theAddressPolicyHoldsForRaw() async throws {
        try await ImageServerHarness.run(configure: { $0.allowsPrivateSources = false }) { harness in
            harness.serve("/a.png", try ImageServerHarness.png())
            let answer = try await harness.get(harness.path("raw", source: "/a.png"))
            #expect(answer.status == 403)
            #expect(String(decoding: answer.body, as: UTF8.self).contains("address not allowed"))
            #expect(harness.sources.requestCount(for: "/a.png") == 0, "a private address is never connected to")
        }
    }

    @Test func theLimitsHoldForRaw() async throws {
        try await ImageServerHarness.run(configure: {
            $0.maxSourceBytes = 4096
            $0.maxSourcePixels = 10_000
        }) { harness in
            // The byte limit stops the transfer before the bytes are looked at.
            harness.serve("/big", Data(repeating: 0, count: 10_000))
            harness.serve("/wide.png", try ImageServerHarness.png(width: 200, height: 60))
            let big = try await harness.get(harness.path("raw", source: "/big"))
            #expect(big.status == 413, "over the byte limit")
            let wide = try await harness.get(harness.path("raw", source: "/wide.png"))
            #expect(wide.status == 422, "over the pixel limit")
            #expect(String(decoding: wide.body, as: UTF8.self).contains("source image too large"))
        }
    }

    @Test func theAllowListHoldsForRaw() async throws {
        try await ImageServerHarness.run(configure: { $0.allowedHosts = ["images.example.com"] }) { harness in
            harness.serve("/a.png", try ImageServerHarness.png())
            #expect(try await harness.get(harness.path("raw", source: "/a.png")).status == 403)
            #expect(harness.sources.requestCount(for: "/a.png") == 0)
        }
    }

    @Test(arguments: ["raw|resize=10", "raw|dpr=2", "raw|cachebuster=1", "raw|raw", "raw=1", "raw|watermark=logo"])
    func rawBesideAnOperationIsRefused(spec: String) {
        #expect(throws: ImageServerError.self) {
            try ImageServerSpec(spec, presets: [:], onlyPresets: false, watermarks: ["logo"])
        }
    }

    @Test func rawMayComeFromAPresetWithTheResponseOptions() throws {
        let spec = try ImageServerSpec("preset=original|attachment|expires=4000000000", presets: ["original": "raw"], onlyPresets: true)
        #expect(spec.isRaw && spec.disposition?.isAttachment == true && spec.expires == 4_000_000_000)
        #expect(throws: ImageServerError.self) { try ImageServerSpec("raw", presets: [:], onlyPresets: true) }
    }

    /// A raw body is counted in the memory budget before it is read — as twice the largest
    /// source, the bytes and their copy in the body — and given back once it is written.
    @Test func aRawBodyIsCountedInTheMemoryBudget() async throws {
        try await ImageServerHarness.run(configure: {
            $0.maxSourceBytes = 1 << 20
            $0.memoryBudget = 1 << 20
        }) { harness in
            harness.serve("/a.png", try ImageServerHarness.png())
            let answer = try await harness.get(harness.path("raw", source: "/a.png"))
            #expect(answer.status == 413, "two source caps do not fit a budget of one")
        }
        try await ImageServerHarness.run(configure: {
            $0.maxSourceBytes = 1 << 20
            $0.memoryBudget = 2 << 20
        }) { harness in
            let png = try ImageServerHarness.png()
            harness.serve("/a.png", png)
            let answer = try await harness.get(harness.path("raw", source: "/a.png"))
            #expect(answer.status == 200)
            #expect(answer.body == png)
            #expect(try await harness.eventuallyShows("webimage_memory_reserved_bytes 0"), "the body gave back what it held")
        }
    }
}
