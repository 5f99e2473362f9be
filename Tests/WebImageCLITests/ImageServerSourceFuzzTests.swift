import Foundation
import LoopbackHTTPServer
import NIOConcurrencyHelpers
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// Hostile sources — extreme shapes, headers that promise far more pixels than they carry,
/// a TIFF of many pages, a JPEG of many scans, animations at and past the frame limit,
/// truncated and false files — sent to a running `webimage serve` under the specs an
/// operator signs and under random ones, many at once: every answer is a documented status,
/// each hostile source is refused (413 or 422) under an ordinary spec, and each good one is
/// answered 200, the process stays up, and its peak resident memory stays under its memory
/// budget plus a stated overhead.
@Suite("ImageServer source fuzz", .timeLimit(.minutes(30)))
struct ImageServerSourceFuzzTests {
    /// How many requests are sent.
    static let requestCount = 800
    /// How many requests are in flight at once.
    static let concurrency = 8
    /// The server's memory budget.
    static let memoryBudget = 256 << 20
    /// What the process takes beyond its budget: the code, the caches' bookkeeping, the
    /// connections, and, in this debug build under ThreadSanitizer, the sanitizer's shadow
    /// memory.
    static let fixedOverhead = 512 << 20

    /// The specs operators sign: fit, fill, smart crop, a thumbnail preset — at thumbnail
    /// sizes near the good sources' own (the sources are small so that the run is short).
    static let ordinarySpecs = [
        "resize=48x48,fit", "resize=48x48,fill", "crop=32x32,smart", "resize=40", "preset=thumb", "resize=24x24,fill|format=webp",
    ]

    /// The frame limit the server is run with (the sources sit at it and just past it).
    static let frameLimit = 20

    /// A source, and the statuses an ordinary spec over it may answer (`nil`: any
    /// documented one — a truncated file may still hold a picture).
    struct Source {
        let path: String
        let data: Data?
        let contentType: String
        let expected: Set<Int>?
    }

    static func sources() throws -> [Source] {
        let coders = ImageCodersManager.shared
        func strip(_ width: Int, _ height: Int) throws -> Data {
            try coders.encode(Image(bitmap: ManagerTestImage.bitmap(width: width, height: height, tint: 90)), as: .png)
        }
        func animation(_ frames: Int, as format: ImageFormat) throws -> Data {
            let frames = (0..<frames).map { ImageFrame(bitmap: ManagerTestImage.bitmap(width: 8, height: 6, tint: UInt8($0 % 200)), duration: 0.05) }
            return try coders.encode(Image(frames: frames, loopCount: 0), as: format)
        }
        let photo = try coders.encode(Image(bitmap: ManagerTestImage.bitmap(width: 96, height: 64, tint: 30)), as: .jpeg)
        let png = try ManagerTestImage.noisePNG(width: 64, height: 48)
        let pages = try coders.encode(
            Image(frames: (0..<150).map { ImageFrame(bitmap: ManagerTestImage.bitmap(width: 1, height: 1, tint: UInt8($0))) }), as: .tiff)
        let limit = Self.frameLimit
        let gif = try animation(limit, as: .gif)
        let good: Set<Int> = [200], refused: Set<Int> = [413, 422]
        return [
            Source(path: "/photo.jpg", data: photo, contentType: "image/jpeg", expected: good),
            Source(path: "/noise.png", data: png, contentType: "image/png", expected: good),
            Source(path: "/frames-at-limit.gif", data: gif, contentType: "image/gif", expected: good),
            Source(path: "/frames-at-limit.webp", data: try animation(limit, as: .webp), contentType: "image/webp", expected: good),
            Source(path: "/frames-at-limit.png", data: try animation(limit, as: .png), contentType: "image/png", expected: good),
            Source(path: "/frames-past-limit.gif", data: try animation(limit + 1, as: .gif), contentType: "image/gif", expected: refused),
            Source(path: "/wide.png", data: try strip(4_000, 1), contentType: "image/png", expected: refused),
            Source(path: "/tall.png", data: try strip(1, 20_000), contentType: "image/png", expected: refused),
            Source(path: "/bomb.png", data: TestImages.pngHeader(width: 100_000, height: 100_000), contentType: "image/png", expected: refused),
            Source(path: "/pages.tiff", data: pages, contentType: "image/tiff", expected: refused),
            Source(path: "/scans.jpg", data: TestImages.manyScanJPEG(bands: 1...63), contentType: "image/jpeg", expected: refused),
            Source(path: "/text.png", data: Data("no image here".utf8), contentType: "image/png", expected: refused),
            Source(path: "/cut.png", data: png.prefix(png.count / 2), contentType: "image/png", expected: nil),
            Source(path: "/cut.jpg", data: photo.prefix(photo.count / 2), contentType: "image/jpeg", expected: nil),
            Source(path: "/cut.gif", data: gif.prefix(gif.count / 3), contentType: "image/gif", expected: nil),
            Source(path: "/missing.png", data: nil, contentType: "image/png", expected: [404]),
        ]
    }

    @Test func hostileSourcesNeverTakeTheServerDown() async throws {
        let scratch = TemporaryDirectory(prefix: "serve-source-fuzz")
        let served = try await LoopbackHTTPServer.start()
        let sources = try Self.sources()
        for source in sources {
            guard let data = source.data else { continue }
            served.route(source.path) { _, response in
                await response.respond(headers: [("Content-Type", source.contentType)], body: Array(data))
            }
        }
        served.route("/missing.png") { _, response in await response.respond(status: 404) }
        let server = try BackgroundProcess(
            try BuiltExecutable.url(named: "webimage"),
            [
                "serve", "--port", "0", "--insecure-unsigned", "--allow-private-sources", "--cache-dir", scratch.url.path,
                "--memory-budget", "\(Self.memoryBudget)", "--max-result-pixels", "2000000", "--request-memory", "64M",
                // A random spec over a 20-frame animation can take long under ThreadSanitizer:
                // past 45 s it is answered 504, long before the client gives up.
                "--max-result-cache", "64M", "--request-timeout", "45", "--max-animation-frames", "\(Self.frameLimit)", "--preset", "thumb=resize=40x40,fill|format=auto",
            ])
        let line = try await server.waitForLine(containing: "listening on")
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0) })
        let client = ImageServerClient()
        var random = SeededGenerator(seed: 43)
        let requests = (0..<Self.requestCount).map { index -> (source: Source, spec: String, ordinary: Bool) in
            let source = sources[index % sources.count]
            let ordinary = Int.random(in: 0..<2, using: &random) == 0
            let spec = ordinary ? Self.ordinarySpecs.randomElement(using: &random)! : ImageServerSpecFuzzTests.spec(&random)
            return (source, spec, ordinary)
        }
        let answers = NIOLockedValueBox<[String: [Int: Int]]>([:])
        let wrong = NIOLockedValueBox<[String]>([])
        let start = ContinuousClock.now
        var failure: (any Error)?
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for lane in 0..<Self.concurrency {
                    group.addTask {
                        for index in stride(from: lane, to: requests.count, by: Self.concurrency) {
                            let (source, spec, ordinary) = requests[index]
                            let path =
                                "/_/" + ImageServerHarness.encode(spec) + "/"
                                + ImageServerHarness.encodeSource(served.url(for: source.path).absoluteString)
                            let status = Int(try await client.get(port: port, path).status)
                            answers.withLockedValue { $0[source.path, default: [:]][status, default: 0] += 1 }
                            if !ImageServerSpecFuzzTests.documented.contains(status) || (ordinary && !(source.expected?.contains(status) ?? true)) {
                                wrong.withLockedValue { $0.append("\(status) for \(spec) over \(source.path)") }
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
        } catch {
            failure = error
        }
        let elapsed = ContinuousClock.now - start
        #expect(failure == nil, "a request failed: \(String(describing: failure))")
        let peak = server.peakResidentBytes ?? Int.max
        #expect(server.isRunning, "the server survived every source")
        #expect((try? await client.get(port: port, "/health"))?.status == 200)
        #expect(wrong.withLockedValue { $0 }.isEmpty, "\(wrong.withLockedValue { $0.prefix(8) })")
        let seen = answers.withLockedValue { $0 }
        #expect(seen.values.flatMap(\.values).reduce(0, +) == Self.requestCount)
        #expect(peak < Self.memoryBudget + Self.fixedOverhead, "peak RSS \(peak) bytes")
        let table = seen.sorted { $0.key < $1.key }.map { path, statuses in
            "\(path) " + statuses.sorted { $0.key < $1.key }.map { "\($0.key)×\($0.value)" }.joined(separator: " ")
        }
        print("source fuzz: \(Self.requestCount) requests in \(elapsed), peak RSS \(peak / (1 << 20)) MiB; \(table.joined(separator: "; "))")
        #expect(await server.stop() == 0)
        try await served.stop()
    }
}
