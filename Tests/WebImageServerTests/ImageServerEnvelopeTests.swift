import Foundation
import LoopbackHTTPServer
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// The server's envelope against hostile sources: extreme shapes, the memory every request
/// plans, slow hosts, and the request's deadline.
@Suite("ImageServer envelope", .serialized, .timeLimit(.minutes(15)))
struct ImageServerEnvelopeTests {
    /// A `width` × `height` PNG of one grey.
    static func strip(width: Int, height: Int) throws -> Data {
        let bitmap = Bitmap(width: width, height: height, pixels: [UInt8](repeating: 128, count: width * height * 4))
        return try ImageCodersManager.shared.encode(Image(bitmap: bitmap), as: .png)
    }

    @Test func aSourceOfExtremeShapeIsRefusedBeforeItIsDecoded() async throws {
        try await ImageServerHarness.run(configure: { $0.maxSourceAspectRatio = 100 }) { harness in
            harness.serve("/strip.png", try Self.strip(width: 1, height: 300))
            let refused = try await harness.get(harness.path("resize=10", source: "/strip.png"))
            #expect(refused.status == 422)
            let info = try await harness.get("/info/_/\(ImageServerHarness.encodeSource(harness.sources.url(for: "/strip.png").absoluteString))")
            #expect(info.status == 422)
            harness.serve("/tall.png", try Self.strip(width: 3, height: 300))
            #expect(try await harness.get(harness.path("resize=10", source: "/tall.png")).status == 200)
        }
    }

    /// A 1 × 600,000 strip resized across once needed 600,000 × 16,384 floats between the
    /// resampler's passes (157 GB): the allocation trapped and the process died.
    @Test func aStripStretchedAcrossIsAnsweredAndTheServerLives() async throws {
        try await ImageServerHarness.run(configure: {
            $0.maxSourceAspectRatio = .infinity
        }) { harness in
            harness.serve("/strip.png", try Self.strip(width: 1, height: 600_000))
            let stretched = try await harness.get(harness.path("grayscale|resize=16384x1,stretch|format=png", source: "/strip.png"))
            #expect(stretched.status == 200)
            let image = try ImageCodersManager.shared.decode(stretched.body)
            #expect(image.pixelSize == PixelSize(width: 16384, height: 1))
            let cropped = try await harness.get(harness.path("crop=300x300,smart|format=png", source: "/strip.png"))
            #expect(cropped.status == 200)
            #expect(try await harness.get("/health").status == 200)
        }
    }

    /// In a container the kernel's limit is the cgroup's, not the machine's: a budget of half
    /// the physical memory would let admitted work reach the OOM killer first.
    @Test func theDefaultMemoryBudgetIsHalfWhatTheProcessMayUse() {
        let configuration = ImageServerConfiguration(cacheDirectory: FileManager.default.temporaryDirectory)
        #expect(configuration.memoryBudget == ProcessMemory.available / 2)
        #expect(configuration.memoryBudget <= Int(clamping: ProcessInfo.processInfo.physicalMemory) / 2)
    }

    @Test func workOverTheWholeMemoryBudgetIsRefused() async throws {
        // A 64 × 48 PNG is planned at 10 bytes a pixel to decode: 30,720 bytes.
        try await ImageServerHarness.run(configure: { $0.memoryBudget = 20_000 }) { harness in
            harness.serve("/a.png", try ImageServerHarness.png())
            let image = try await harness.get(harness.path("resize=10", source: "/a.png"))
            #expect(image.status == 413)
            #expect(String(decoding: image.body, as: UTF8.self).contains("more memory than the server has"))
            let info = try await harness.get("/info/_/\(ImageServerHarness.encodeSource(harness.sources.url(for: "/a.png").absoluteString))")
            #expect(info.status == 413)
        }
        // No decoded source is kept past the request (ImageServerDecodedSourceTests counts those).
        try await ImageServerHarness.run(configure: {
            $0.memoryBudget = 1 << 20
            $0.decodedSourceMemory = 0
        }) { harness in
            harness.serve("/a.png", try ImageServerHarness.png())
            #expect(try await harness.get(harness.path("resize=10", source: "/a.png")).status == 200)
            let metrics = try await harness.metrics()
            #expect(metrics.contains("webimage_memory_reserved_bytes 0"), "every admitted byte was given back")
        }
    }

    @Test func aRequestPastItsDeadlineIsAnswered504AndItsFetchForgotten() async throws {
        try await ImageServerHarness.run(configure: { $0.requestTimeout = 1 }) { harness in
            let gate = LoopbackGate()
            harness.serve("/slow.png", try ImageServerHarness.png(), after: gate)
            let late = try await harness.get(harness.path("resize=10", source: "/slow.png"))
            #expect(late.status == 504)
            #expect(try await harness.get("/health").status == 200)
            // Counted now, not assumed to be 1: on a loaded machine the first request's
            // second could pass before its fetch reached the source (CI once saw that).
            let fetchedBefore = harness.sources.requestCount(for: "/slow.png")
            gate.open()
            // No request waits for the fetch any more: it was cancelled and forgotten, so the
            // next request fetches the source again instead of joining a dead fetch.
            _ = try await harness.get(harness.path("resize=10", source: "/slow.png"))
            #expect(harness.sources.requestCount(for: "/slow.png") == fetchedBefore + 1)
        }
    }

    @Test func aSlowHostTakesNoMoreThanItsFetches() async throws {
        try await ImageServerHarness.run(configure: { $0.maxFetchesPerHost = 1 }) { harness in
            let gate = LoopbackGate()
            harness.serve("/slow.png", try ImageServerHarness.png(), after: gate)
            harness.serve("/next.png", try ImageServerHarness.png())
            let slow = Task { try await harness.get(harness.path("resize=10", source: "/slow.png")) }
            try await harness.sources.waitForRequests(to: "/slow.png")
            let next = Task { try await harness.get(harness.path("resize=10", source: "/next.png")) }
            #expect(try await harness.eventuallyShows("webimage_source_fetches_waiting 1"))
            #expect(harness.sources.requestCount(for: "/next.png") == 0, "the host's one fetch is taken")
            gate.open()
            #expect(try await slow.value.status == 200)
            #expect(try await next.value.status == 200)
        }
    }
}
