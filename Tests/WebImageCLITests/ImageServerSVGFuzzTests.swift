import Foundation
import LoopbackHTTPServer
import NIOConcurrencyHelpers
import Testing
import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// Generated hostile SVG sources — entities that spell what the screen refuses, XInclude,
/// nested `data:` documents and images of gdk-pixbuf's other formats, filter parameters
/// whose render never ends, huge `viewBox`es, fan-out through `<use>` chains — beside good
/// ones, sent to a running `webimage serve` many at once, under ordinary specs and `/info`:
/// every answer is a documented status, each refused document is refused, each good one is
/// answered, every answer comes within the request deadline plus a stated margin, the
/// process stays up, and its peak resident memory stays under its budget plus a stated
/// overhead.
@Suite("ImageServer SVG source fuzz", .timeLimit(.minutes(30)))
struct ImageServerSVGFuzzTests {
    /// The requests sent, and how many are in flight at once.
    static let requestCount = 96
    static let concurrency = 8
    /// The server's request deadline, in seconds.
    static let requestTimeout = 10.0
    /// What an answer may take beyond the deadline: a worker killed, its answer written, on
    /// a loaded machine in a debug build under ThreadSanitizer. A render nothing can stop
    /// ran for twenty minutes before.
    static let answerMargin = 120.0
    /// The server's memory budget, and what the process takes beyond it (code, caches'
    /// bookkeeping, and ThreadSanitizer's shadow memory).
    static let memoryBudget = 256 << 20
    static let fixedOverhead = 512 << 20

    static let ordinarySpecs = ["resize=48x48,fit", "resize=40", "resize=32x32,fill|format=webp", "info"]

    /// A generated source: its document and whether it must be answered (`true`), refused
    /// (`false`), or may be either (`nil`: a render that may or may not finish in time).
    struct Source {
        let path: String
        let svg: String
        let answered: Bool?
    }

    static func svg(_ body: String, width: Int = 64, height: Int = 64, prolog: String = "") -> String {
        "<?xml version=\"1.0\"?>\(prolog)<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\""
            + " xmlns:xi=\"http://www.w3.org/2001/XInclude\" width=\"\(width)\" height=\"\(height)\">\(body)</svg>"
    }

    static func sources(_ random: inout SeededGenerator) throws -> [Source] {
        let png = try ManagerTestImage.noisePNG(width: 8, height: 8).base64EncodedString()
        let ppm = Data(("P6\n8 8\n255\n".utf8) + [UInt8](repeating: 200, count: 8 * 8 * 3)).base64EncodedString()
        let nested = Data(svg("<rect width=\"4\" height=\"4\"/>").utf8).base64EncodedString()
        let huge = "%3Csvg xmlns='http://www.w3.org/2000/svg' width='\(Int.random(in: 12_000...30_000, using: &random))' height='12000'/%3E"
        let octaves = Int.random(in: 100_000...2_000_000, using: &random)
        let depth = Int.random(in: 12...24, using: &random)
        var chain = "<defs><rect id=\"u0\" width=\"1\" height=\"1\"/>"
        for level in 1...depth {
            chain += "<g id=\"u\(level)\"><use xlink:href=\"#u\(level - 1)\"/><use xlink:href=\"#u\(level - 1)\" x=\"1\"/></g>"
        }
        chain += "</defs><use xlink:href=\"#u\(depth)\"/>"
        return [
            Source(path: "/good.svg", svg: svg("<circle cx=\"32\" cy=\"32\" r=\"20\" fill=\"#c04020\"/>"), answered: true),
            Source(path: "/good-image.svg", svg: svg("<image width=\"64\" height=\"64\" href=\"data:image/png;base64,\(png)\"/>"), answered: true),
            Source(
                path: "/entity.svg",
                svg: svg("<rect width=\"4\" height=\"4\"/>&t;", prolog: "<!DOCTYPE svg [<!ENTITY t \"<fe&#84;ile/>\">]>"),
                answered: false),
            Source(path: "/nested.svg", svg: svg("<image width=\"8\" height=\"8\" href=\"data:image/svg+xml;base64,\(nested)\"/>"), answered: false),
            Source(path: "/nested-huge.svg", svg: svg("<image width=\"16\" height=\"16\" href=\"data:image/svg+xml,\(huge)\"/>", width: 16, height: 16), answered: false),
            Source(path: "/xinclude.svg", svg: svg("<xi:include href=\"data:text/plain,hello\" parse=\"text\"/>"), answered: false),
            Source(path: "/ppm.svg", svg: svg("<image width=\"8\" height=\"8\" href=\"data:image/x-portable-pixmap;base64,\(ppm)\"/>"), answered: false),
            Source(
                path: "/turbulence.svg",
                svg: svg(
                    "<filter id=\"f\"><feTurbulence baseFrequency=\"0.05\" numOctaves=\"\(octaves)\"/></filter>"
                        + "<rect width=\"64\" height=\"64\" filter=\"url(#f)\"/>"),
                answered: nil),
            Source(path: "/viewbox.svg", svg: "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 1e30 1e30\"><rect width=\"1e29\" height=\"1e29\"/></svg>", answered: nil),
            Source(path: "/use-chain.svg", svg: svg(chain), answered: nil),
        ]
    }

    @Test func hostileSVGSourcesNeverTakeTheServerDown() async throws {
        var random = SeededGenerator(seed: 52)
        let scratch = TemporaryDirectory(prefix: "serve-svg-fuzz")
        let served = try await LoopbackHTTPServer.start()
        let sources = try Self.sources(&random)
        for source in sources {
            let body = Array(source.svg.utf8)
            served.route(source.path) { _, response in await response.respond(headers: [("Content-Type", "image/svg+xml")], body: body) }
        }
        let server = try BackgroundProcess(
            try BuiltExecutable.url(named: "webimage"),
            [
                "serve", "--port", "0", "--insecure-unsigned", "--allow-private-sources", "--cache-dir", scratch.url.path,
                "--memory-budget", "\(Self.memoryBudget)", "--request-timeout", "\(Int(Self.requestTimeout))",
            ])
        let line = try await server.waitForLine(containing: "listening on")
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0) })
        let client = ImageServerClient()
        let requests = (0..<Self.requestCount).map { index in
            (source: sources[index % sources.count], spec: Self.ordinarySpecs.randomElement(using: &random)!)
        }
        let answers = NIOLockedValueBox<[String: [Int: Int]]>([:])
        let wrong = NIOLockedValueBox<[String]>([])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for lane in 0..<Self.concurrency {
                group.addTask {
                    for index in stride(from: lane, to: requests.count, by: Self.concurrency) {
                        let (source, spec) = requests[index]
                        let encoded = ImageServerHarness.encodeSource(served.url(for: source.path).absoluteString)
                        let path = spec == "info" ? "/info/_/\(encoded)" : "/_/\(ImageServerHarness.encode(spec))/\(encoded)"
                        let started = ContinuousClock.now
                        let status = Int(try await client.get(port: port, path).status)
                        let took = ContinuousClock.now - started
                        answers.withLockedValue { $0[source.path, default: [:]][status, default: 0] += 1 }
                        let refused = [413, 415, 422, 504].contains(status)
                        if !ImageServerSpecFuzzTests.documented.union([415]).contains(status)
                            || (source.answered == true && status != 200) || (source.answered == false && !refused)
                            || took > .seconds(Self.requestTimeout + Self.answerMargin)
                        {
                            wrong.withLockedValue { $0.append("\(status) after \(took) for \(spec) over \(source.path)") }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let peak = server.peakResidentBytes ?? Int.max
        #expect(server.isRunning, "the server survived every source")
        #expect((try? await client.get(port: port, "/health"))?.status == 200)
        #expect(wrong.withLockedValue { $0 }.isEmpty, "\(wrong.withLockedValue { $0.prefix(8) })")
        #expect(peak < Self.memoryBudget + Self.fixedOverhead, "peak RSS \(peak) bytes")
        let table = answers.withLockedValue { $0 }.sorted { $0.key < $1.key }.map { path, statuses in
            "\(path) " + statuses.sorted { $0.key < $1.key }.map { "\($0.key)×\($0.value)" }.joined(separator: " ")
        }
        print("SVG source fuzz: \(Self.requestCount) requests, peak RSS \(peak >> 20) MiB; \(table.joined(separator: "; "))")
        #expect(await server.stop() == 0)
        try await served.stop()
    }
}
