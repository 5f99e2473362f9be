import Foundation
import LoopbackHTTPServer
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// `webimage fetch` at scale and in detail: `--from` lists, partial-image counts and
/// `--save` names, run as the built binary.
@Suite("webimage fetch --from, partials and saved names", .serialized)
struct CLIFetchListTests {
    @Test func fetchesTwentyThousandListedFiles() async throws {
        let scratch = TemporaryDirectory(prefix: "webimage-fetch-list")
        let images = scratch.appending("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        let original = images.appendingPathComponent("0.png")
        try ImageCodersManager.shared.encode(Image(bitmap: Bitmap(width: 2, height: 2)), as: .png).write(to: original)
        // Hard links: 20,000 distinct file URLs of one tiny PNG, made in a moment.
        var lines = ["# 20,000 files, one per line", ""]
        for index in 0..<20_000 {
            let file = images.appendingPathComponent("\(index).png")
            if index > 0 { try FileManager.default.linkItem(at: original, to: file) }
            lines.append(file.absoluteString)
        }
        let list = scratch.appending("urls.txt")
        try lines.joined(separator: "\n").write(to: list, atomically: true, encoding: .utf8)

        let output = try await CommandLineTool.run(
            ["fetch", "--json", "--options", "cacheMemoryOnly", "--cache-dir", scratch.appending("cache").path, "--from", list.path],
            scratch: scratch.url
        )
        #expect(output.status == 0, "\(output.standardError)")
        let results = try output.jsonLines()
        try #require(results.count == 20_000)
        #expect(results.map { $0["url"] as? String } == lines.dropFirst(2).map(Optional.some))
        #expect(results.allSatisfy { $0["ok"] as? Bool == true && $0["width"] as? Int == 2 })
    }

    @Test func readsTheListFromStandardInputBesideArguments() async throws {
        try await CLIImageServer.run { server, scratch in
            let list = "# from standard input\n\(server.url("/b.jpg"))\n\n\(server.url("/a.png"))\n"
            let output = try await CommandLineTool.run(
                ["fetch", "--json", "--cache-dir", scratch.appending("cache").path, "--from", "-", server.url("/anim.gif")],
                scratch: scratch.url, input: Data(list.utf8)
            )
            #expect(output.status == 0)
            let urls = try output.jsonLines().map { $0["url"] as? String }
            #expect(urls == [server.url("/anim.gif"), server.url("/b.jpg"), server.url("/a.png")])
        }
    }

    @Test func needsURLsOrAList() async throws {
        let scratch = TemporaryDirectory(prefix: "webimage-fetch-list")
        let output = try await CommandLineTool.run(["fetch", "--json"], scratch: scratch.url)
        #expect(output.status != 0)
        #expect(output.standardError.contains("--from"))
    }

    @Test(Corpus.required) func countsThePartialImagesOfASlowProgressiveJPEG() async throws {
        // A progressive JPEG (227×149, 5.7 KB) sent in twenty pieces 100 ms apart.
        let jpeg = Array(try Corpus.data("libjpeg-turbo-testimages/testimgint.jpg"))
        try await CLIImageServer.run { server, scratch in
            server.server.route("/slow.jpg") { _, response in
                await response.writeHead(status: 200, headers: [("Content-Type", "image/jpeg"), ("Content-Length", String(jpeg.count))])
                let piece = (jpeg.count + 19) / 20
                for start in stride(from: 0, to: jpeg.count, by: piece) {
                    await response.writeBody(jpeg[start..<min(start + piece, jpeg.count)])
                    try? await Task.sleep(for: .milliseconds(100))
                }
                await response.end()
            }
            let output = try await CommandLineTool.run(
                ["fetch", "--json", "--options", "progressiveDownload", "--cache-dir", scratch.appending("cache").path, server.url("/slow.jpg")],
                scratch: scratch.url
            )
            #expect(output.status == 0)
            let line = try #require(try output.jsonLines().first)
            #expect(line["width"] as? Int == 227)
            #expect(line["callbacks"] as? Int == 1)
            #expect((line["partials"] as? Int ?? 0) >= 2, "\(line)")
        }
    }

    @Test func aLoadWithoutProgressiveDownloadHasNoPartials() async throws {
        try await CLIImageServer.run { server, scratch in
            let output = try await CommandLineTool.run(
                ["fetch", "--json", "--cache-dir", scratch.appending("cache").path, server.url("/a.png")],
                scratch: scratch.url
            )
            #expect(try output.jsonLines().first?["partials"] as? Int == 0)
        }
    }

    @Test func saveShortensNamesPastTheFileSystemLimit() async throws {
        let longName = String(repeating: "n", count: 300)
        try await CLIImageServer.run { server, scratch in
            for (suffix, bytes) in [("a", server.png), ("b", server.jpeg)] {
                server.server.route("/\(longName)\(suffix).png") { _, response in
                    await response.respond(headers: [("Content-Type", "image/png")], body: bytes)
                }
            }
            let folder = scratch.appending("saved")
            let output = try await CommandLineTool.run(
                [
                    "fetch", "--json", "--save", folder.path, "--cache-dir", scratch.appending("cache").path,
                    server.url("/\(longName)a.png"), server.url("/\(longName)b.png"),
                ],
                scratch: scratch.url
            )
            #expect(output.status == 0, "\(output.standardOutput)")
            let saved = try output.jsonLines().compactMap { $0["saved"] as? String }
            try #require(saved.count == 2)
            #expect(Set(saved).count == 2, "names differing only past the cut stay distinct")
            let names = saved.map { URL(fileURLWithPath: $0).lastPathComponent }
            #expect(names.allSatisfy { $0.utf8.count <= 255 && $0.hasPrefix("nnnn") })
            #expect(names[0].hasSuffix(".png"))
            #expect(names[1].hasSuffix(".jpg"), "the extension follows the bytes, as for short names")
            #expect(FileManager.default.contents(atPath: saved[0]) == Data(server.png))
            #expect(FileManager.default.contents(atPath: saved[1]) == Data(server.jpeg))
        }
    }
}
