import Foundation
import LoopbackHTTPServer
import Testing
import WebImage
import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// The decoded sources through the running server: the sizes a page asks of one source are
/// made from one decode, kept within the memory budget for a while and given up first when
/// a request needs room.
@Suite("ImageServer decoded sources", .timeLimit(.minutes(15)))
struct ImageServerDecodedSourceTests {
    /// A photograph-like gradient, smooth enough that a reduced JPEG decode and a resize
    /// of the full one agree within a few levels.
    static func gradient(width: Int, height: Int) -> Bitmap {
        // Written in place, as `ManagerTestImage.bitmap` is, for the unoptimised build.
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            for y in 0..<height {
                for x in 0..<width {
                    let offset = (y * width + x) * 4
                    buffer[offset] = UInt8(x * 255 / max(1, width - 1))
                    buffer[offset + 1] = UInt8(y * 255 / max(1, height - 1))
                    buffer[offset + 2] = UInt8((x + y) * 255 / max(1, width + height - 2))
                    buffer[offset + 3] = 255
                }
            }
            count = width * height * 4
        }
        return Bitmap(width: width, height: height, pixels: pixels)
    }

    static func png(width: Int, height: Int) throws -> Data {
        try ImageCodersManager.shared.encode(Image(bitmap: gradient(width: width, height: height)), as: .png)
    }

    static func jpeg(width: Int, height: Int) throws -> Data {
        try ImageCodersManager.shared.encode(Image(bitmap: gradient(width: width, height: height)), as: .jpeg)
    }

    /// The largest difference of one channel between `a` and `b`, which are the same size.
    static func largestDifference(_ a: Bitmap, _ b: Bitmap) -> Int {
        var largest = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let (p, q) = (a.rgba8(x: x, y: y), b.rgba8(x: x, y: y))
                largest = max(
                    largest, abs(Int(p.red) - Int(q.red)), abs(Int(p.green) - Int(q.green)), abs(Int(p.blue) - Int(q.blue)),
                    abs(Int(p.alpha) - Int(q.alpha)))
            }
        }
        return largest
    }

    /// The line of `/metrics` that shows gauge `name` at `value`.
    static func gauge(_ name: String, _ value: Int) -> String {
        "\(name) \(Double(value))\n"
    }

    /// Whether `metrics` counts `hits` and `misses` of the decoded sources.
    static func counts(_ metrics: String, hits: Int, misses: Int) -> Bool {
        // A counter never counted is not shown.
        let hit = "webimage_decoded_sources_total{result=\"hit\"}"
        return (hits == 0 ? !metrics.contains(hit) : metrics.contains("\(hit) \(hits)\n"))
            && metrics.contains("webimage_decoded_sources_total{result=\"miss\"} \(misses)\n")
    }

    @Test func fourWidthsOneAfterAnotherAreMadeFromTwoDecodes() async throws {
        try await ImageServerHarness.run(configure: { $0.decodedSourceLifetime = 600 }) { harness in
            harness.serve("/a.png", try Self.png(width: 1600, height: 1200))
            for width in [320, 640, 960, 1280] {
                let answer = try await harness.get(harness.path("resize=\(width)|format=png", source: "/a.png"))
                #expect(answer.status == 200)
                #expect(try answer.image().pixelSize == PixelSize(width: width, height: width * 3 / 4))
            }
            // 320, asked alone, is decoded the usual way and not kept; 640, asked again, is
            // decoded for the tier, and that decode serves 960 and 1280.
            let metrics = try await harness.metrics()
            #expect(Self.counts(metrics, hits: 2, misses: 2), "two decodes for four widths:\n\(metrics)")
            #expect(metrics.contains(Self.gauge("webimage_decoded_source_bytes", 1600 * 1200 * 4)), "the PNG is kept at its full size")
        }
    }

    @Test func aStillWebPIsDecodedForFourTimesTheSizeAsked() async throws {
        let source = try ImageCodersManager.shared.encode(Image(bitmap: Self.gradient(width: 1600, height: 1200)), as: .webp)
        try await ImageServerHarness.run(configure: { $0.decodedSourceLifetime = 600 }) { harness in
            harness.serve("/a.webp", source, contentType: "image/webp")
            for width in [100, 160, 320, 640] {
                let answer = try await harness.get(harness.path("resize=\(width)|format=png", source: "/a.webp"))
                #expect(try answer.image().pixelSize == PixelSize(width: width, height: width * 3 / 4))
            }
            // 100, asked alone, is not kept; 160, asked again, is decoded for the tier at 640
            // px wide, which serves 320 and 640 (twice 160, as for a JPEG, would not serve 640).
            let metrics = try await harness.metrics()
            #expect(Self.counts(metrics, hits: 2, misses: 2), "two decodes for four widths:\n\(metrics)")
            #expect(metrics.contains(Self.gauge("webimage_decoded_source_bytes", 640 * 480 * 4)), "\(metrics)")
        }
    }

    @Test func aSourceAskedForOnceIsNotKept() async throws {
        try await ImageServerHarness.run(configure: { $0.decodedSourceLifetime = 600 }) { harness in
            harness.serve("/a.png", try Self.png(width: 1600, height: 1200))
            harness.serve("/b.png", try Self.png(width: 1200, height: 900))
            for source in ["/a.png", "/b.png"] {
                #expect(try await harness.get(harness.path("resize=320|format=png", source: source)).status == 200)
            }
            let metrics = try await harness.metrics()
            #expect(Self.counts(metrics, hits: 0, misses: 2), "\(metrics)")
            #expect(!metrics.contains("webimage_decoded_source_bytes"), "nothing kept:\n\(metrics)")
            #expect(try await harness.eventuallyShows(Self.gauge("webimage_memory_reserved_bytes", 0)), "no decode held")
        }
    }

    @Test func aJPEGAskedAgainIsDecodedForTheLargerSizesThatFollow() async throws {
        try await ImageServerHarness.run(configure: { $0.decodedSourceLifetime = 600 }) { harness in
            harness.serve("/a.jpg", try Self.jpeg(width: 1600, height: 1200), contentType: "image/jpeg")
            for width in [320, 640, 960, 1280] {
                let answer = try await harness.get(harness.path("resize=\(width)|format=png", source: "/a.jpg"))
                #expect(answer.status == 200)
                #expect(try answer.image().pixelSize == PixelSize(width: width, height: width * 3 / 4))
            }
            // 320, asked alone, is decoded at its size and not kept; 640, asked again, at
            // twice its size, which serves 960 and 1280.
            let metrics = try await harness.metrics()
            #expect(Self.counts(metrics, hits: 2, misses: 2), "\(metrics)")
        }
    }

    @Test func aSmallerSizeIsMadeFromALargerDecodeAsAnUncachedDecodeMakesIt() async throws {
        let source = try Self.jpeg(width: 1600, height: 1200)
        var kept: Bitmap?
        try await ImageServerHarness.run(configure: { $0.decodedSourceLifetime = 600 }) { harness in
            harness.serve("/a.jpg", source, contentType: "image/jpeg")
            // The first request is decoded alone; the second, asked again, for the tier.
            #expect(try await harness.get(harness.path("resize=1200|format=png", source: "/a.jpg")).status == 200)
            #expect(try await harness.get(harness.path("resize=1200|format=jpeg", source: "/a.jpg")).status == 200)
            let small = try await harness.get(harness.path("resize=300|format=png", source: "/a.jpg"))
            #expect(small.status == 200)
            kept = try small.image().bitmap
            #expect(Self.counts(try await harness.metrics(), hits: 1, misses: 2), "the 300 px result reused the 1200 px decode")
        }
        var uncached: Bitmap?
        try await ImageServerHarness.run(configure: { $0.decodedSourceMemory = 0 }) { harness in
            harness.serve("/a.jpg", source, contentType: "image/jpeg")
            uncached = try await harness.get(harness.path("resize=300|format=png", source: "/a.jpg")).image().bitmap
            #expect(!(try await harness.metrics()).contains("webimage_decoded_sources_total"), "none kept")
        }
        let (reused, decoded) = (try #require(kept), try #require(uncached))
        #expect(reused.size == decoded.size)
        // A reduced JPEG decode (libjpeg's DCT scaling) and a resize of a larger decode
        // differ by the two filters only.
        #expect(Self.largestDifference(reused, decoded) <= 8)
    }

    @Test func sizesMadeFromAKeptDecodeComeOutAsUncachedOnes() async throws {
        // Sides that no width divides, so that a size rounded from a reduced decode rather
        // than the source would show (331 px wide: 249 high from the source, 250 from 662 × 499).
        let source = try Self.jpeg(width: 1597, height: 1203)
        let widths = [331, 1100, 517, 250, 97]
        var kept: [Bitmap] = []
        try await ImageServerHarness.run(configure: { $0.decodedSourceLifetime = 600 }) { harness in
            harness.serve("/a.jpg", source, contentType: "image/jpeg")
            // Decoded alone at 331 px, then for the tier at twice that: 662 × 499, averaged
            // down by 2 for 331, then by 2 and 6 for 250 and 97; 1100 needs the full-size
            // decode, which 517 is averaged down from by 3.
            #expect(try await harness.get(harness.path("resize=331|format=jpeg", source: "/a.jpg")).status == 200)
            for width in widths {
                kept.append(try await harness.get(harness.path("resize=\(width)|format=png", source: "/a.jpg")).image().bitmap)
            }
            let metrics = try await harness.metrics()
            #expect(Self.counts(metrics, hits: 3, misses: 3), "\(metrics)")
        }
        var uncached: [Bitmap] = []
        try await ImageServerHarness.run(configure: { $0.decodedSourceMemory = 0 }) { harness in
            harness.serve("/a.jpg", source, contentType: "image/jpeg")
            for width in widths {
                uncached.append(try await harness.get(harness.path("resize=\(width)|format=png", source: "/a.jpg")).image().bitmap)
            }
        }
        for (index, width) in widths.enumerated() {
            #expect(kept[index].size == uncached[index].size, "\(width) px wide")
            // Block averages and libjpeg's reduced decode differ by their filters only.
            #expect(Self.largestDifference(kept[index], uncached[index]) <= 8, "\(width) px wide")
        }
    }

    @Test func aPNGKeptAtFullSizeGivesTheSamePixelsAsAnUncachedDecode() async throws {
        let source = try ManagerTestImage.noisePNG(width: 400, height: 300)
        var results: [Bitmap] = []
        for memory in [nil, 0] {
            // Kept ten minutes: a loaded machine can take longer than the default between requests.
            try await ImageServerHarness.run(configure: {
                $0.decodedSourceMemory = memory
                $0.decodedSourceLifetime = 600
            }) { harness in
                harness.serve("/a.png", source)
                // Asked a second time, the source is decoded at full size for the tier.
                #expect(try await harness.get(harness.path("resize=200|format=png", source: "/a.png")).status == 200)
                results.append(try await harness.get(harness.path("resize=150|format=png", source: "/a.png")).image().bitmap)
                let bytes = Self.gauge("webimage_decoded_source_bytes", 400 * 300 * 4)
                #expect(try await harness.metrics().contains(bytes) == (memory == nil))
            }
        }
        #expect(results.count == 2)
        #expect(results[0].size == results[1].size)
        #expect(Self.largestDifference(results[0], results[1]) <= 1)
    }

    @Test func aDecodeExpiresAndGivesItsMemoryBack() async throws {
        try await ImageServerHarness.run(configure: { $0.decodedSourceLifetime = 0.2 }) { harness in
            harness.serve("/a.png", try Self.png(width: 200, height: 100))
            // Decoded alone, then (remembered for a minute) asked again and kept.
            #expect(try await harness.get(harness.path("resize=50|format=png", source: "/a.png")).status == 200)
            #expect(try await harness.get(harness.path("resize=40|format=png", source: "/a.png")).status == 200)
            #expect(try await harness.eventuallyShows("webimage_decoded_source_evictions_total 1"))
            #expect(try await harness.eventuallyShows(Self.gauge("webimage_decoded_source_bytes", 0)))
            #expect(try await harness.eventuallyShows(Self.gauge("webimage_memory_reserved_bytes", 0)), "every byte given back")
            // Expired, the source is decoded again.
            #expect(try await harness.get(harness.path("resize=60|format=png", source: "/a.png")).status == 200)
            #expect(Self.counts(try await harness.metrics(), hits: 0, misses: 3))
        }
    }

    @Test func admissionEvictsDecodesBeforeARequestWaits() async throws {
        // A 400 × 300 PNG is kept at 480,000 bytes, and its resize from that size is planned
        // at 2,010,112 more: one request fits in 2,600,000 bytes, but not beside another's
        // kept decode.
        let kept = 400 * 300 * 4
        try await ImageServerHarness.run(configure: {
            $0.memoryBudget = 2_600_000
            $0.decodedSourceMemory = 1_000_000
            $0.decodedSourceLifetime = 600
            // Without the eviction the second request would wait this long, then be refused.
            $0.memoryWait = 60
        }) { harness in
            harness.serve("/a.png", try ImageServerHarness.png(width: 400, height: 300))
            harness.serve("/b.png", try ImageServerHarness.png(width: 400, height: 300))
            // Each source is asked for twice: decoded alone, then for the tier.
            #expect(try await harness.get(harness.path("resize=33|format=png", source: "/a.png")).status == 200)
            let first = try await harness.get(harness.path("resize=32|format=png", source: "/a.png"))
            #expect(first.status == 200, "\(String(decoding: first.body, as: UTF8.self))")
            #expect(try await harness.eventuallyShows(Self.gauge("webimage_decoded_source_bytes", kept)))
            #expect(try await harness.eventuallyShows(Self.gauge("webimage_memory_reserved_bytes", kept)), "the kept decode is counted")
            #expect(try await harness.get(harness.path("resize=33|format=png", source: "/b.png")).status == 200)
            let clock = ContinuousClock()
            let started = clock.now
            let second = try await harness.get(harness.path("resize=32|format=png", source: "/b.png"))
            #expect(second.status == 200, "\(String(decoding: second.body, as: UTF8.self))")
            #expect(clock.now - started < .seconds(60), "admitted without waiting out the memory wait")
            let metrics = try await harness.metrics()
            #expect(metrics.contains("webimage_decoded_source_evictions_total 1\n"), "\(metrics)")
            #expect(metrics.contains(Self.gauge("webimage_decoded_source_bytes", kept)), "the second source's decode is kept instead")
        }
    }

    @Test func concurrentRequestsForOneSourceShareOneDecode() async throws {
        try await ImageServerHarness.run(configure: { $0.decodedSourceLifetime = 600 }) { harness in
            let gate = LoopbackGate()
            harness.serve("/a.png", try Self.png(width: 800, height: 600), after: gate)
            let widths = [100, 160, 200, 240, 300, 360, 400, 480]
            let requests = widths.map { width in
                Task { try await harness.get(harness.path("resize=\(width)|format=png", source: "/a.png")) }
            }
            try await harness.sources.waitForRequests(to: "/a.png")
            gate.open()
            for (width, request) in zip(widths, requests) {
                let answer = try await request.value
                #expect(answer.status == 200)
                #expect(try answer.image().pixelSize == PixelSize(width: width, height: width * 3 / 4))
            }
            // Each request counts itself before it waits for the source, so the first to look
            // up finds the source shared, unless the others had not yet reached the server:
            // then it decodes alone and the second decodes for the rest.
            let metrics = try await harness.metrics()
            #expect(Self.counts(metrics, hits: 7, misses: 1) || Self.counts(metrics, hits: 6, misses: 2), "\(metrics)")
            #expect(metrics.contains(Self.gauge("webimage_decoded_source_bytes", 800 * 600 * 4)))
            #expect(try await harness.eventuallyShows(Self.gauge("webimage_memory_reserved_bytes", 800 * 600 * 4)), "only the kept decode is held")
        }
    }
}
