import Foundation
import LoopbackHTTPServer
import NIOConcurrencyHelpers
import Testing
import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

extension ImageServerSpecFuzzTests {
    /// How many thumbor URLs are sent.
    static let thumborURLCount = 1_000

    /// One thumbor path: each of thumbor's parts present or not, valid or broken (huge and
    /// negative sizes, bad crops, unknown alignments), then up to 6 filters from thumbor's
    /// list and beyond it, with good, missing, extra and out-of-range arguments.
    static func thumborPath(_ random: inout SeededGenerator, image: String) -> String {
        func pick(_ values: [String]) -> String { values.randomElement(using: &random)! }
        var parts: [String] = []
        if Bool.random(using: &random) { parts.append(pick(["trim", "trim:10", "trim:top-left:300", "trim:bottom-right", "trim:x", "meta", "debug"])) }
        if Int.random(in: 0..<4, using: &random) == 0 {
            parts.append(pick(["0x0:10x10", "10x10:5x5", "1x1:99999x99999", "99999999999999999999x0:1x1", "0x0:16384x16384"]))
        }
        if Bool.random(using: &random) { parts.append(pick(["fit-in", "full-fit-in", "adaptive-fit-in", "adaptive-full-fit-in"])) }
        let sides = ["", "0", "1", "-1", "7", "-33", "64", "200", "1000", "4000", "16384", "16385", "99999", "orig", "-orig", "-"]
        if Int.random(in: 0..<4, using: &random) > 0 { parts.append(pick(sides) + "x" + pick(sides)) }
        if Bool.random(using: &random) { parts.append(pick(["left", "right", "center", "top", "bottom", "middle", "smart"])) }
        var filters: [String] = []
        for _ in 0..<Int.random(in: 0...6, using: &random) {
            filters.append(
                pick([
                    "quality(\(pick(["0", "50", "100", "101", "-1", "x", ""])))", "format(\(pick(["webp", "png", "jpeg", "gif", "avif", "bmp", ""])))",
                    "blur(\(pick(["0", "1", "5", "150", "151", "4,2", "1,-3", "x"])))", "brightness(\(pick(["-100", "40", "1000", "x"])))",
                    "contrast(\(pick(["-100", "40", "100", "101", "-300"])))", "saturation(\(pick(["0", "0.5", "4", "5", "-1"])))",
                    "sharpen(\(pick(["2,1,true", "0,0,false", "99,99,true", "1"])))", "rotate(\(pick(["90", "-90", "45", "720", "x"])))",
                    "round_corner(\(pick(["20,255,255,255", "20|10,0,0,0", "99999,0,0,0,true", "1"])))",
                    "fill(\(pick(["ff0000", "blue", "auto", "blur", "nope", "ff0000,true"])))", "background_color(\(pick(["fff", "zz", ""])))",
                    "max_bytes(\(pick(["1", "1000", "0"])))", "proportion(\(pick(["0.5", "2", "0.0001"])))", "grayscale()", "no_upscale()",
                    "upscale()", "stretch()", "strip_exif()", "strip_icc()", "autojpg(\(pick(["", "false"])))", "equalize()", "noise(10)",
                    "rgb(1,2,3)", "watermark(\(image),\(pick(["0,0,50", "-0,-10p,0,20,none", "repeat,repeat,100", "center,repeat,0,none,10000", "1,1,1,-1,none"])))",
                    "unknown(1)", "focal(1x1:5x5)", "(", ")", "blur((1))",
                ]))
        }
        if !filters.isEmpty { parts.append("filters:" + filters.joined(separator: ":")) }
        return "/unsafe/" + (parts + [image]).joined(separator: "/")
    }

    @Test func randomThumborURLsNeverTakeTheServerDown() async throws {
        let scratch = TemporaryDirectory(prefix: "serve-fuzz-thumbor")
        let sources = try await LoopbackHTTPServer.start()
        let png = try ImageServerHarness.png(width: 64, height: 48)
        sources.route("/a.png") { _, response in
            await response.respond(headers: [("Content-Type", "image/png")], body: Array(png))
        }
        let server = try BackgroundProcess(
            try BuiltExecutable.url(named: "webimage"),
            [
                "serve", "--request-timeout", "600", "--port", "0", "--insecure-unsigned", "--allow-private-sources", "--cache-dir", scratch.url.path,
                "--max-result-pixels", "100000", "--request-memory", "8M", "--max-result-cache", "64M", "--dialect", "native", "--dialect", "thumbor",
            ])
        let line = try await server.waitForLine(containing: "listening on")
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0) })
        let client = ImageServerClient()
        var random = SeededGenerator(seed: 53)
        let image = sources.url(for: "/a.png").absoluteString.replacingOccurrences(of: "http://", with: "")
        let requests = (0..<Self.thumborURLCount).map { _ in Self.thumborPath(&random, image: image) }
        let statuses = NIOLockedValueBox<[Int: Int]>([:])
        let undocumented = NIOLockedValueBox<[(String, Int)]>([])
        var failure: (any Error)?
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for lane in 0..<Self.concurrency {
                    group.addTask {
                        for index in stride(from: lane, to: requests.count, by: Self.concurrency) {
                            let status = Int(try await client.get(port: port, requests[index]).status)
                            statuses.withLockedValue { $0[status, default: 0] += 1 }
                            if !Self.documented.contains(status) { undocumented.withLockedValue { $0.append((requests[index], status)) } }
                        }
                    }
                }
                try await group.waitForAll()
            }
        } catch {
            failure = error
        }
        #expect(failure == nil, "a request failed: \(String(describing: failure))")
        #expect(server.isRunning, "the server survived every URL")
        let seen = statuses.withLockedValue { $0 }
        #expect(seen.values.reduce(0, +) == Self.thumborURLCount)
        #expect(undocumented.withLockedValue { $0 }.isEmpty, "\(undocumented.withLockedValue { $0.prefix(5) })")
        #expect(seen[200, default: 0] > 0 && seen[400, default: 0] > 0 && seen[413, default: 0] > 0)
        let peak = server.peakResidentBytes ?? Int.max
        #expect(peak < Self.peakBound, "peak RSS \(peak) bytes")
        print(
            "thumbor fuzz: \(Self.thumborURLCount) URLs, statuses \(seen.sorted { $0.key < $1.key }.map { "\($0.key)×\($0.value)" }.joined(separator: " ")), peak RSS \(peak / (1 << 20)) MiB"
        )
        #expect(await server.stop() == 0)
        try await sources.stop()
    }
}
