import Foundation
import LoopbackHTTPServer
import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// A loopback server with the images the command-line tests load: a 64×48 PNG, a 40×30
/// JPEG, a three-frame GIF, undecodable bytes and a 404.
struct CLIImageServer {
    /// The server.
    let server: LoopbackHTTPServer
    /// The bytes served at `/a.png`.
    let png: [UInt8]
    /// The bytes served at `/b.jpg`.
    let jpeg: [UInt8]
    /// The bytes served at `/anim.gif`.
    let gif: [UInt8]

    /// The PNG, JPEG and GIF every server serves, encoded once per process: 22 tests start a
    /// server, and under ThreadSanitizer the encodes cost more than the server.
    private static let images = Result { () throws -> (png: [UInt8], jpeg: [UInt8], gif: [UInt8]) in
        let coders = ImageCodersManager.shared
        let png = Array(try coders.encode(Image(bitmap: gradient(width: 64, height: 48, shift: 0)), as: .png))
        let jpeg = Array(try coders.encode(Image(bitmap: gradient(width: 40, height: 30, shift: 1)), as: .jpeg))
        let frames = (0..<3).map { ImageFrame(bitmap: gradient(width: 20, height: 20, shift: $0), duration: 0.1) }
        let gif = Array(try coders.encode(Image(frames: frames), as: .gif))
        return (png, jpeg, gif)
    }

    /// Starts a server with the images routed.
    static func start() async throws -> CLIImageServer {
        let server = try await LoopbackHTTPServer.start()
        let (png, jpeg, gif) = try images.get()
        for (path, bytes, type) in [("/a.png", png, "image/png"), ("/b.jpg", jpeg, "image/jpeg"), ("/anim.gif", gif, "image/gif")] {
            server.route(path) { _, response in
                await response.respond(headers: [("Content-Type", type)], body: bytes)
            }
        }
        server.route("/broken.png") { _, response in
            await response.respond(headers: [("Content-Type", "image/png")], body: Array("this is not a picture".utf8))
        }
        server.route("/missing.png") { _, response in
            await response.respond(status: 404, body: Array("not found".utf8))
        }
        return CLIImageServer(server: server, png: png, jpeg: jpeg, gif: gif)
    }

    /// The address of `path`, as the tool takes it.
    func url(_ path: String) -> String {
        server.url(for: path).absoluteString
    }

    /// Runs `body` with a fresh server and scratch folder, and stops the server after.
    static func run(_ body: (CLIImageServer, TemporaryDirectory) async throws -> Void) async throws {
        let server = try await start()
        let scratch = TemporaryDirectory(prefix: "webimage-cli")
        do {
            try await body(server, scratch)
        } catch {
            try await server.stop()
            throw error
        }
        try await server.stop()
    }

    /// Stops the server.
    func stop() async throws {
        try await server.stop()
    }

    private static func gradient(width: Int, height: Int, shift: Int) -> Bitmap {
        var bitmap = Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let offset = (y * width + x) * 4
                bitmap.pixels[offset] = UInt8((x * 255 / max(1, width - 1) + shift * 80) % 256)
                bitmap.pixels[offset + 1] = UInt8(y * 255 / max(1, height - 1))
                bitmap.pixels[offset + 2] = UInt8((shift * 60) % 256)
                bitmap.pixels[offset + 3] = 255
            }
        }
        return bitmap
    }
}
