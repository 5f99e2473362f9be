import Foundation
import LoopbackHTTPServer
import NIOConcurrencyHelpers
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// `webimage serve`'s server, on a loopback port, against a loopback source server.
@Suite("ImageServer", .serialized, .timeLimit(.minutes(15)))
struct ImageServerTests {
    @Test func resizesAndConvertsThroughTheSpec() async throws {
        try await ImageServerHarness.run { harness in
            harness.serve("/a.png", try ImageServerHarness.png())
            for base64 in [false, true] {
                let answer = try await harness.get(harness.path("resize=32|format=webp,q=80", source: "/a.png", base64: base64))
                #expect(answer.status == 200)
                #expect(answer.headers.first(name: "Content-Type") == "image/webp")
                let image = try answer.image()
                #expect(image.format == .webp && image.pixelWidth == 32 && image.pixelHeight == 24)
                #expect(answer.headers.first(name: "Cache-Control")?.contains("max-age=") == true)
            }
            // Without format= the source's format is kept.
            let png = try await harness.get(harness.path("resize=x12", source: "/a.png"))
            #expect(try png.image().format == .png && png.image().pixelHeight == 12)
            #expect(harness.sources.requestCount(for: "/a.png") == 1, "the source is fetched once, then cached")
            let metrics = try await harness.metrics()
            #expect(metrics.contains("webimage_requests_total{status=\"200\"} 3"))
            #expect(metrics.contains("webimage_source_fetches_total 1"))
            // The base64 form names the same source and spec as the plain one: a result-cache hit.
            #expect(metrics.contains("webimage_result_cache_total{result=\"miss\"} 2"))
            #expect(metrics.contains("webimage_result_cache_total{result=\"hit\"} 1"))
            #expect(metrics.contains("webimage_request_duration_seconds_bucket"))
        }
    }

    @Test func formatAutoFollowsAcceptAndVaries() async throws {
        try await ImageServerHarness.run { harness in
            harness.serve("/a.png", try ImageServerHarness.png())
            let path = harness.path("resize=20|format=auto", source: "/a.png")
            let webp = try await harness.get(path, headers: [("Accept", "image/webp,*/*;q=0.8")])
            #expect(webp.headers.first(name: "Vary") == "Accept")
            #expect(try webp.image().format == .webp, "AVIF is not in this Accept, so WebP wins")
            let plain = try await harness.get(path, headers: [("Accept", "image/png")])
            #expect(try plain.image().format == .png)
            #expect(plain.headers.first(name: "Vary") == "Accept")
            #if AVIF
            let avif = try await harness.get(path, headers: [("Accept", "image/avif,image/webp,*/*;q=0.8")])
            #expect(avif.headers.first(name: "Content-Type") == "image/avif")
            #expect(try avif.image().format == .avif, "with an AVIF encoder, AVIF wins when the client accepts it")
            #endif
        }
    }

    @Test func answersIfNoneMatchWith304() async throws {
        try await ImageServerHarness.run { harness in
            harness.serve("/a.png", try ImageServerHarness.png())
            let path = harness.path("resize=16", source: "/a.png")
            let first = try await harness.get(path)
            let eTag = try #require(first.headers.first(name: "ETag"))
            let again = try await harness.get(path, headers: [("If-None-Match", eTag)])
            #expect(again.status == 304 && again.body.isEmpty)
            let changed = try await harness.get(path, headers: [("If-None-Match", "\"other\"")])
            #expect(changed.status == 200 && changed.headers.first(name: "ETag") == eTag)
        }
    }

    @Test func oneSourceFetchForManyConcurrentSizes() async throws {
        try await ImageServerHarness.run { harness in
            let gate = LoopbackGate()
            harness.serve("/shared.png", try ImageServerHarness.png(width: 200, height: 100), after: gate)
            try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<100 {
                    let path = harness.path("resize=\(10 + index)", source: "/shared.png")
                    group.addTask { try await harness.get(path).status }
                }
                try await harness.sources.waitForRequests(to: "/shared.png")
                gate.open()
                for try await status in group { #expect(status == 200) }
            }
            #expect(harness.sources.requestCount(for: "/shared.png") == 1)
        }
    }

    @Test func refusesBadSignaturesHostsAndPrivateAddresses() async throws {
        let key: [UInt8] = Array("secret key".utf8)
        try await ImageServerHarness.run(configure: {
            $0.allowsUnsignedURLs = false
            $0.signingKey = key
            $0.signingSalt = Array("salt".utf8)
        }) { harness in
            harness.serve("/a.png", try ImageServerHarness.png())
            let unsigned = harness.path("resize=10", source: "/a.png")
            #expect(try await harness.get(unsigned).status == 403)
            let signedPath = String(unsigned.dropFirst(2))  // "/<spec>/<source>"
            let signature = ImageURLSigner(key: key, salt: Array("salt".utf8)).signature(for: signedPath)
            #expect(try await harness.get("/\(signature)\(signedPath)").status == 200)
            let forged = ImageURLSigner(key: Array("other".utf8), salt: Array("salt".utf8)).signature(for: signedPath)
            let refused = try await harness.get("/\(forged)\(signedPath)")
            #expect(refused.status == 403)
            #expect(String(decoding: refused.body, as: UTF8.self).contains("\"status\":403"))
        }
        try await ImageServerHarness.run(configure: { $0.allowedHosts = ["images.example.com"] }) { harness in
            harness.serve("/a.png", try ImageServerHarness.png())
            #expect(try await harness.get(harness.path("resize=10", source: "/a.png")).status == 403)
            #expect(harness.sources.requests.isEmpty)
        }
        try await ImageServerHarness.run(configure: { $0.allowsPrivateSources = false }) { harness in
            harness.serve("/a.png", try ImageServerHarness.png())
            let answer = try await harness.get(harness.path("resize=10", source: "/a.png"))
            #expect(answer.status == 403)
            #expect(String(decoding: answer.body, as: UTF8.self).contains("address not allowed"))
            #expect(harness.sources.requests.isEmpty)
        }
    }

    @Test func refusesHugeSourcesAndBombs() async throws {
        try await ImageServerHarness.run(configure: { $0.maxSourceBytes = 2_000 }) { harness in
            harness.serve("/noise.png", try ManagerTestImage.noisePNG(width: 128, height: 128))
            #expect(try await harness.get(harness.path("resize=10", source: "/noise.png")).status == 413)
            harness.serve("/bomb.png", TestImages.pngHeader(width: 100_000, height: 100_000))
            #expect(try await harness.get(harness.path("resize=10", source: "/bomb.png")).status == 422)
            harness.serve("/text.png", Data("no image here".utf8))
            #expect(try await harness.get(harness.path("resize=10", source: "/text.png")).status == 422)
        }
    }

    @Test func aSlowSourceHoldsNoSlot() async throws {
        try await ImageServerHarness.run(configure: { $0.maxConcurrentRequests = 1 }) { harness in
            harness.serve("/fast.png", try ImageServerHarness.png())
            let made = try await harness.get(harness.path("resize=12", source: "/fast.png"))
            #expect(made.status == 200)
            let gate = LoopbackGate()
            harness.serve("/slow.png", try ImageServerHarness.png(), after: gate)
            let slow = Task { try await harness.get(harness.path("resize=10", source: "/slow.png")) }
            try await harness.sources.waitForRequests(to: "/slow.png")
            // The one slot is free while the slow source trickles: new work, results made
            // before, 304s and /health are all answered.
            #expect(try await harness.get(harness.path("resize=13", source: "/fast.png")).status == 200)
            let hit = try await harness.get(harness.path("resize=12", source: "/fast.png"))
            #expect(hit.status == 200 && hit.body == made.body)
            let eTag = try #require(made.headers.first(name: "ETag"))
            let unchanged = try await harness.get(harness.path("resize=12", source: "/fast.png"), headers: [("If-None-Match", eTag)])
            #expect(unchanged.status == 304)
            #expect(try await harness.get("/health").status == 200)
            #expect(try await harness.get("/_/resize=10").status == 400)
            #expect(try await harness.get(harness.path("resize=banana", source: "/slow.png")).status == 400)
            gate.open()
            #expect(try await slow.value.status == 200)
        }
    }

    @Test func classifiesAddresses() {
        #expect(!IPAddress(bytes: [127, 0, 0, 1]).isPublic)
        #expect(!IPAddress(bytes: [10, 1, 2, 3]).isPublic)
        #expect(!IPAddress(bytes: [172, 20, 0, 1]).isPublic)
        #expect(!IPAddress(bytes: [192, 168, 1, 1]).isPublic)
        #expect(!IPAddress(bytes: [169, 254, 169, 254]).isPublic)
        #expect(!IPAddress(bytes: [100, 64, 0, 1]).isPublic)
        #expect(IPAddress(bytes: [93, 184, 216, 34]).isPublic)
        #expect(!IPAddress(bytes: Array(repeating: 0, count: 15) + [1]).isPublic)
        #expect(!IPAddress(bytes: [0xFE, 0x80] + Array(repeating: 0, count: 14)).isPublic)
        #expect(!IPAddress(bytes: Array(repeating: 0, count: 10) + [0xFF, 0xFF, 127, 0, 0, 1]).isPublic)
        #expect(IPAddress(bytes: [0x26, 0x06] + Array(repeating: 1, count: 14)).isPublic)
    }
}
