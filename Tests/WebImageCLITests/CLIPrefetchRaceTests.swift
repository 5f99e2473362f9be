import Foundation
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// Four `webimage prefetch --max-disk-size` processes racing into one folder.
@Suite("webimage prefetch racing into one folder", .serialized)
struct CLIPrefetchRaceTests {
    @Test func fourRacingProcessesKeepTheFolderUnderTheLimit() async throws {
        // 4 × 20 distinct noise PNGs of about 9 KB: each process alone writes six times
        // the limit, so each trims, often while another does, and only the shared count
        // (and trims taking turns) keeps the sum in check. Twenty races, since a lost
        // count shows in only some interleavings.
        let images = try (0..<80).map { try Self.noisePNG(seed: $0) }
        let limit = 30_000
        try await CLIImageServer.run { server, scratch in
            for (index, png) in images.enumerated() {
                server.server.route("/noise-\(index).png") { _, response in
                    await response.respond(headers: [("Content-Type", "image/png")], body: png)
                }
            }
            for round in 0..<20 {
                let cache = scratch.appending("cache-\(round)")
                // Long timeouts: on a loaded machine the test's own server may stay silent
                // past the default 15 s, and this test is about the folder, not the clock.
                let outputs = try await withThrowingTaskGroup(of: CommandLineTool.Output.self) { group in
                    for process in 0..<4 {
                        let urls = (0..<20).map { server.url("/noise-\(process * 20 + $0).png") }
                        group.addTask {
                            try await CommandLineTool.run(
                                [
                                    "prefetch", "--cache-dir", cache.path, "--max-disk-size", String(limit), "--concurrency", "4",
                                    "--timeout", "300", "--deadline", "600",
                                ] + urls,
                                scratch: scratch.url
                            )
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(outputs.map(\.status) == [0, 0, 0, 0], "\(outputs.filter { $0.status != 0 }.map(\.standardError))")
                let folder = cache.appendingPathComponent("default").path
                let entries = FileSystem.scan(directory: folder).visible
                let size = entries.reduce(0) { $0 + $1.size }
                #expect(size <= limit, "round \(round): \(entries.count) entries, \(size) bytes over \(limit)")
                #expect(!entries.isEmpty)
            }
        }
    }

    /// A 48×48 PNG of noise, which does not compress: about 9 KB.
    static func noisePNG(seed: Int) throws -> [UInt8] {
        var bitmap = Bitmap(width: 48, height: 48)
        var state = UInt64(seed + 1) &* 0x9E37_79B9_7F4A_7C15
        for index in bitmap.pixels.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bitmap.pixels[index] = UInt8(truncatingIfNeeded: state >> 56)
        }
        return Array(try ImageCodersManager.shared.encode(Image(bitmap: bitmap), as: .png))
    }
}
