import Foundation
import Testing
import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// `webimage cache info|clear|clean`, run as the built binary.
@Suite("webimage cache", .serialized)
struct CLICacheTests {
    @Test func infoCleanAndClearReportTheFolder() async throws {
        try await CLIImageServer.run { server, scratch in
            let cache = scratch.appending("cache")
            let fill = ["fetch", "--cache-dir", cache.path, server.url("/a.png"), server.url("/b.jpg")]
            let filled = try await CommandLineTool.run(fill, scratch: scratch.url)
            #expect(filled.status == 0, "\(filled.standardError)")
            let total = server.png.count + server.jpeg.count

            let info = try #require(try await cacheCommand(["info"], cache: cache, scratch: scratch))
            #expect(info["path"] as? String == cache.appendingPathComponent("default").path)
            #expect(info["entries"] as? Int == 2)
            #expect(info["bytes"] as? Int == total)
            #expect(info["removedEntries"] == nil)
            #expect(info["memoryLimit"] as? Int == ProcessMemory.defaultMemoryCacheLimit)

            let gentle = try #require(try await cacheCommand(["clean"], cache: cache, scratch: scratch))
            #expect(gentle["entries"] as? Int == 2)
            #expect(gentle["removedEntries"] as? Int == 0)

            let limit = total - 1
            let trimmed = try #require(try await cacheCommand(["clean", "--max-size", String(limit)], cache: cache, scratch: scratch))
            let left = try #require(trimmed["bytes"] as? Int)
            #expect(left < limit / 2)
            #expect(trimmed["removedBytes"] as? Int == total - left)

            let expired = try #require(try await cacheCommand(["clean", "--max-age", "0"], cache: cache, scratch: scratch))
            #expect(expired["entries"] as? Int == 0)

            let refilled = try await CommandLineTool.run(fill, scratch: scratch.url)
            #expect(refilled.status == 0, "\(refilled.standardError)")
            let cleared = try #require(try await cacheCommand(["clear"], cache: cache, scratch: scratch))
            #expect(cleared["entries"] as? Int == 0)
            #expect(cleared["removedEntries"] as? Int == 2)
            #expect(cleared["removedBytes"] as? Int == total)
            #expect(FolderContents.regularFiles(under: cache).isEmpty)
        }
    }

    @Test func infoWithoutJSONIsOneLine() async throws {
        try await CLIImageServer.run { _, scratch in
            let cache = scratch.appending("empty")
            let output = try await CommandLineTool.run(["cache", "info", "--cache-dir", cache.path], scratch: scratch.url)
            #expect(output.status == 0)
            let limit = Double(ProcessMemory.defaultMemoryCacheLimit) / 1_000_000
            #expect(
                output.lines == [
                    "\(cache.appendingPathComponent("default").path): 0 entries, 0 B; memory cache limit \(String(format: "%.2f", limit)) MB"
                ])
        }
    }

    private func cacheCommand(_ arguments: [String], cache: URL, scratch: TemporaryDirectory) async throws -> [String: Any]? {
        let output = try await CommandLineTool.run(["cache"] + arguments + ["--json", "--cache-dir", cache.path], scratch: scratch.url)
        #expect(output.status == 0)
        return try output.jsonLines().first
    }
}
