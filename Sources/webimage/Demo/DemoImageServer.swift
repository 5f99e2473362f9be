import Foundation
import LoopbackHTTPServer
import NIOConcurrencyHelpers
import WebImage

/// The demo's image host: an HTTP server on 127.0.0.1 serving the built-in sample set —
/// every format, animations, a few broken files and, every 30th URL, a 404.
///
/// Each image is painted and encoded the first time it is asked for and kept, so a set
/// of thousands costs only what is looked at. Responses carry `Content-Type`, `ETag`
/// and `Cache-Control` like a real image host.
final class DemoImageServer: Sendable {
    /// Every 30th URL has no image behind it.
    static let missingInterval = 30

    /// The server.
    let server: LoopbackHTTPServer
    /// The image URLs, in sample order (the 404 ones included).
    let urls: [URL]
    private let generated = NIOLockedValueBox([Int: [UInt8]]())

    private init(server: LoopbackHTTPServer, count: Int, largestSide: Int) {
        self.server = server
        urls = (0..<count).map { server.url(for: "/images/\(SampleImageSet.name(at: $0))") }
        for index in 0..<count where !DemoImageServer.isMissing(index) {
            server.route("/images/\(SampleImageSet.name(at: index))") { [self] _, response in
                await respond(index: index, largestSide: largestSide, with: response)
            }
        }
    }

    /// Starts a server for `count` images whose longest side is at most `largestSide`.
    static func start(count: Int, largestSide: Int = 1600) async throws -> DemoImageServer {
        DemoImageServer(server: try await LoopbackHTTPServer.start(), count: count, largestSide: largestSide)
    }

    /// Whether sample `index` is served as a 404.
    static func isMissing(_ index: Int) -> Bool {
        index % missingInterval == missingInterval - 1
    }

    /// Stops the server.
    func stop() async throws {
        try await server.stop()
    }

    private func respond(index: Int, largestSide: Int, with response: LoopbackResponseWriter) async {
        let bytes: [UInt8]
        if let cached = generated.withLockedValue({ $0[index] }) {
            bytes = cached
        } else {
            do {
                bytes = try SampleImageSet.sample(at: index, largestSide: largestSide).data
            } catch {
                await response.respond(status: 500, body: Array("\(error)\n".utf8))
                return
            }
            generated.withLockedValue { $0[index] = bytes }
        }
        let format = ImageFormat(sniffing: Data(bytes.prefix(64)))
        await response.respond(
            status: 200,
            headers: [
                ("Content-Type", format.mimeType ?? "application/octet-stream"),
                ("ETag", "\"demo-\(index)-\(bytes.count)\""),
                ("Cache-Control", "max-age=3600"),
            ],
            body: bytes
        )
    }
}
