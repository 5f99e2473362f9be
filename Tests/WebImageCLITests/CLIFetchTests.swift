import Foundation
import Testing
import WebImageTestSupport
import WebImageLoadingTestSupport

/// `webimage fetch`, run as the built binary against a loopback server.
@Suite("webimage fetch", .serialized)
struct CLIFetchTests {
    @Test func reportsEachURLAsJSONInInputOrder() async throws {
        try await CLIImageServer.run { server, scratch in
            let cache = scratch.appending("cache").path
            let paths = ["/a.png", "/anim.gif", "/missing.png", "/broken.png"]
            let output = try await CommandLineTool.run(
                ["fetch", "--json", "--cache-dir", cache] + paths.map(server.url), scratch: scratch.url
            )
            #expect(output.status == 1)
            let lines = try output.jsonLines()
            try #require(lines.count == 4)
            #expect(lines.map { $0["url"] as? String } == paths.map(server.url))

            #expect(lines[0]["ok"] as? Bool == true)
            #expect(lines[0]["cacheType"] as? String == "none")
            #expect(lines[0]["format"] as? String == "png")
            #expect(lines[0]["width"] as? Int == 64)
            #expect(lines[0]["height"] as? Int == 48)
            #expect(lines[0]["frames"] as? Int == 1)
            #expect(lines[0]["bytes"] as? Int == server.png.count)
            #expect(lines[0]["callbacks"] as? Int == 1)

            #expect(lines[1]["format"] as? String == "gif")
            #expect(lines[1]["frames"] as? Int == 3)
            #expect(lines[1]["bytes"] as? Int == server.gif.count)

            let missing = try #require(lines[2]["error"] as? [String: Any])
            #expect(lines[2]["ok"] as? Bool == false)
            #expect(missing["code"] as? String == "invalidStatusCode")
            #expect(missing["status"] as? Int == 404)
            #expect((missing["message"] as? String)?.isEmpty == false)

            let broken = try #require(lines[3]["error"] as? [String: Any])
            #expect(broken["code"] as? String == "badImageData")
            #expect(broken["status"] == nil)
        }
    }

    @Test func exitsZeroWhenEveryURLLoads() async throws {
        try await CLIImageServer.run { server, scratch in
            let output = try await CommandLineTool.run(
                ["fetch", "--json", "--cache-dir", scratch.appending("cache").path, server.url("/a.png"), server.url("/b.jpg")],
                scratch: scratch.url
            )
            #expect(output.status == 0)
            let lines = try output.jsonLines()
            #expect(lines.map { $0["ok"] as? Bool } == [true, true])
            #expect(lines.last?["format"] as? String == "jpeg")
            #expect(lines.last?["width"] as? Int == 40)
        }
    }

    @Test func duplicatesShareOneDownload() async throws {
        try await CLIImageServer.run { server, scratch in
            let url = server.url("/a.png")
            let output = try await CommandLineTool.run(
                ["fetch", "--json", "--cache-dir", scratch.appending("cache").path, url, url, url], scratch: scratch.url
            )
            #expect(output.status == 0)
            let lines = try output.jsonLines()
            #expect(lines.count == 1)
            #expect(lines.first?["callbacks"] as? Int == 3)
            #expect(server.server.requestCount(for: "/a.png") == 1)
        }
    }

    @Test func secondRunComesFromDisk() async throws {
        try await CLIImageServer.run { server, scratch in
            let arguments = ["fetch", "--json", "--cache-dir", scratch.appending("cache").path, server.url("/a.png")]
            let first = try await CommandLineTool.run(arguments, scratch: scratch.url)
            let second = try await CommandLineTool.run(arguments, scratch: scratch.url)
            #expect(try first.jsonLines().first?["cacheType"] as? String == "none")
            #expect(try second.jsonLines().first?["cacheType"] as? String == "disk")
            #expect(try second.jsonLines().first?["width"] as? Int == 64)
            #expect(server.server.requestCount(for: "/a.png") == 1)
        }
    }

    @Test func cacheMemoryOnlyLeavesTheFolderEmpty() async throws {
        try await CLIImageServer.run { server, scratch in
            let cache = scratch.appending("cache")
            let memoryOnly = try await CommandLineTool.run(
                ["fetch", "--json", "--options", "cacheMemoryOnly", "--cache-dir", cache.path, server.url("/a.png")],
                scratch: scratch.url
            )
            #expect(memoryOnly.status == 0)
            #expect(FolderContents.regularFiles(under: cache).isEmpty)
            let again = try await CommandLineTool.run(
                ["fetch", "--json", "--cache-dir", cache.path, server.url("/a.png")], scratch: scratch.url
            )
            #expect(try again.jsonLines().first?["cacheType"] as? String == "none")
            #expect(server.server.requestCount(for: "/a.png") == 2)
            #expect(FolderContents.regularFiles(under: cache).count == 1)
        }
    }

    @Test func unknownOptionNameIsAUsageError() async throws {
        try await CLIImageServer.run { server, scratch in
            let output = try await CommandLineTool.run(
                ["fetch", "--options", "retryFailed,sparkle", server.url("/a.png")], scratch: scratch.url
            )
            #expect(output.status == 64)
            #expect(output.standardError.contains("sparkle"))
            #expect(output.standardError.contains("cacheMemoryOnly"))
            #expect(server.server.requestCount(for: "/a.png") == 0)
        }
    }

    @Test func headersAndCredentialsReachTheServer() async throws {
        try await CLIImageServer.run { server, scratch in
            let output = try await CommandLineTool.run(
                [
                    "fetch", "--cache-dir", scratch.appending("cache").path,
                    "--header", "X-Demo: 42", "--header", "X-Other:seven", "--user", "ann:s3cret:x",
                    server.url("/a.png"),
                ],
                scratch: scratch.url
            )
            #expect(output.status == 0)
            let request = try #require(server.server.requests.first { $0.path == "/a.png" })
            #expect(request.header("X-Demo") == "42")
            #expect(request.header("X-Other") == "seven")
            #expect(request.header("Authorization") == "Basic " + Data("ann:s3cret:x".utf8).base64EncodedString())
        }
    }

    @Test func thumbnailFitsInsideTheSize() async throws {
        try await CLIImageServer.run { server, scratch in
            let output = try await CommandLineTool.run(
                ["fetch", "--json", "--thumbnail", "16x16", "--cache-dir", scratch.appending("cache").path, server.url("/a.png")],
                scratch: scratch.url
            )
            let line = try #require(try output.jsonLines().first)
            #expect(line["width"] as? Int == 16)
            #expect(line["height"] as? Int == 12)
        }
    }

    @Test func saveWritesTheOriginalBytes() async throws {
        try await CLIImageServer.run { server, scratch in
            let folder = scratch.appending("saved")
            let output = try await CommandLineTool.run(
                [
                    "fetch", "--json", "--save", folder.path, "--cache-dir", scratch.appending("cache").path,
                    server.url("/a.png"), server.url("/b.jpg"),
                ],
                scratch: scratch.url
            )
            #expect(output.status == 0)
            #expect(try output.jsonLines().first?["saved"] as? String == folder.appendingPathComponent("a.png").path)
            #expect(FileManager.default.contents(atPath: folder.appendingPathComponent("a.png").path) == Data(server.png))
            #expect(FileManager.default.contents(atPath: folder.appendingPathComponent("b.jpg").path) == Data(server.jpeg))
        }
    }
}
