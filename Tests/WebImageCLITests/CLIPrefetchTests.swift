import Foundation
import Testing
import WebImageTestSupport
import WebImageLoadingTestSupport

/// `webimage prefetch`, run as the built binary against a loopback server.
@Suite("webimage prefetch", .serialized)
struct CLIPrefetchTests {
    @Test func countsFinishedAndSkippedURLs() async throws {
        try await CLIImageServer.run { server, scratch in
            let cache = scratch.appending("cache").path
            let output = try await CommandLineTool.run(
                ["prefetch", "--cache-dir", cache, server.url("/a.png"), server.url("/b.jpg"), server.url("/missing.png")],
                scratch: scratch.url
            )
            #expect(output.status == 1)
            #expect(output.lines.last == "finished 3, skipped 1")
            let info = try await CommandLineTool.run(["cache", "info", "--json", "--cache-dir", cache], scratch: scratch.url)
            #expect(try info.jsonLines().first?["entries"] as? Int == 2)
        }
    }

    @Test func readsTheURLsFromAFileAndFillsTheCache() async throws {
        try await CLIImageServer.run { server, scratch in
            let cache = scratch.appending("cache").path
            let list = scratch.appending("urls.txt")
            try "# images\n\(server.url("/a.png"))\n\n\(server.url("/anim.gif"))\n".write(to: list, atomically: true, encoding: .utf8)
            let output = try await CommandLineTool.run(
                ["prefetch", "--cache-dir", cache, "--concurrency", "1", "--from", list.path], scratch: scratch.url
            )
            #expect(output.status == 0)
            #expect(output.lines.last == "finished 2, skipped 0")
            let fetch = try await CommandLineTool.run(
                ["fetch", "--json", "--cache-dir", cache, server.url("/a.png"), server.url("/anim.gif")], scratch: scratch.url
            )
            #expect(try fetch.jsonLines().map { $0["cacheType"] as? String } == ["disk", "disk"])
            #expect(server.server.requestCount(for: "/a.png") == 1)
            #expect(server.server.requestCount(for: "/anim.gif") == 1)
        }
    }

    @Test func needsSomeURLs() async throws {
        try await CLIImageServer.run { _, scratch in
            let output = try await CommandLineTool.run(["prefetch"], scratch: scratch.url)
            #expect(output.status == 64)
            #expect(output.standardError.contains("--from"))
        }
    }
}
