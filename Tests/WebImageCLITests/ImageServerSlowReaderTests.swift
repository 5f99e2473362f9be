import Foundation
import LoopbackHTTPServer
import Testing
import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Clients that ask for a large cached result and never read it: before, every answer
/// copied the whole result into its body (twenty such clients of a 71 MiB result took a
/// server under `--memory-budget 512M` to 1.6 GiB); now each holds a piece of the file.
@Suite("ImageServer slow readers", .timeLimit(.minutes(20)))
struct ImageServerSlowReaderTests {
    /// Clients that send the request and read nothing.
    static let stalledClients = 12

    @Test func clientsThatNeverReadALargeResultHoldNoCopyOfIt() async throws {
        let scratch = TemporaryDirectory(prefix: "serve-slow-readers")
        let served = try await LoopbackHTTPServer.start()
        // 2,000 × 1,500 of one colour: a small PNG, an 11 MiB BMP result.
        let png = try ImageCodersManager.shared.encode(Image(bitmap: ManagerTestImage.bitmap(width: 2_000, height: 1_500, tint: 70)), as: .png)
        served.route("/flat.png") { _, response in await response.respond(headers: [("Content-Type", "image/png")], body: Array(png)) }
        let server = try BackgroundProcess(
            try BuiltExecutable.url(named: "webimage"),
            [
                "serve", "--port", "0", "--metrics-port", "0", "--insecure-unsigned", "--allow-private-sources", "--cache-dir",
                scratch.url.path, "--result-memory-limit", "0", "--write-timeout", "600", "--idle-timeout", "600",
                // A slow machine may take long over the first result in this debug build.
                "--request-timeout", "600", "--timeout", "600",
            ])
        let line = try await server.waitForLine(containing: "listening on")
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0) })
        let metricsLine = try await server.waitForLine(containing: "metrics on")
        let metricsPort = try #require(metricsLine.split(separator: ":").last?.split(separator: "/").first.flatMap { Int($0) })
        let client = ImageServerClient()
        let path = "/_/" + ImageServerHarness.encode("format=bmp") + "/" + ImageServerHarness.encodeSource(served.url(for: "/flat.png").absoluteString)
        let made = try await client.get(port: port, path)
        #expect(made.status == 200)
        let resultBytes = made.body.count
        #expect(resultBytes > 8 << 20)
        let before = try #require(server.peakResidentBytes)
        // Each client sends the request and never reads: the answer is a cache hit.
        var sockets: [Int32] = []
        defer { for socket in sockets { close(socket) } }
        for _ in 0..<Self.stalledClients {
            let socket = try Self.connect(port: port)
            sockets.append(socket)
            let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            _ = request.withCString { send(socket, $0, strlen($0), 0) }
        }
        // Every stalled request has been answered from the cache (its body is being written).
        let hits = "webimage_result_cache_total{result=\"hit\"} \(Self.stalledClients)"
        var answered = false
        for _ in 0..<600 where !answered {
            answered = try await client.get(port: metricsPort, "/metrics").body.contains(Data(hits.utf8))
            if !answered { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(answered, "the stalled requests were answered from the result cache")
        let after = try #require(server.peakResidentBytes)
        // A copy a client would be 12 × 11 MiB; a piece a client is a few MiB in all.
        let growth = after - before
        #expect(growth < Self.stalledClients * resultBytes / 4, "the peak grew \(growth >> 20) MiB for \(Self.stalledClients) stalled clients")
        // The server still answers everyone else.
        #expect(try await client.get(port: port, "/health").status == 200)
        #expect(await server.stop() == 0)
    }

    /// A connected TCP socket to 127.0.0.1:`port`.
    static func connect(port: Int) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(socket)
            throw POSIXError(.ECONNREFUSED)
        }
        return socket
    }
}
