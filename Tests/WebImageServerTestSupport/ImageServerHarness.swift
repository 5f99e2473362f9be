import Foundation
import LoopbackHTTPServer
import NIOConcurrencyHelpers
import Testing
import Tracing
import WebImage
import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport

/// An ``ImageServer`` on a loopback port in this process, a loopback source server, and an
/// HTTP client, for one test.
package struct ImageServerHarness: Sendable {
    package let server: ImageServer
    package let port: Int
    /// The port of the metrics listener.
    package let metricsPort: Int
    package let sources: LoopbackHTTPServer
    package let client: ImageServerClient
    package let folder: TemporaryDirectory

    /// A PNG source of `width` × `height`.
    package static func png(width: Int = 64, height: Int = 48) throws -> Data {
        try ImageCodersManager.shared.encode(Image(bitmap: ManagerTestImage.bitmap(width: width, height: height, tint: 40)), as: .png)
    }

    /// Runs `body` with a server configured by `configure` (unsigned URLs and private
    /// sources allowed unless it says otherwise), tracing with `tracer` when one is given,
    /// then stops everything.
    package static func run(
        configure: (inout ImageServerConfiguration) -> Void = { _ in },
        tracer: (any Tracer)? = nil,
        _ body: (ImageServerHarness) async throws -> Void
    ) async throws {
        let folder = TemporaryDirectory(prefix: "image-server")
        var configuration = ImageServerConfiguration(cacheDirectory: folder.url)
        configuration.port = 0
        configuration.allowsUnsignedURLs = true
        configuration.allowsPrivateSources = true
        configuration.metricsPort = 0
        // One access-log line per request would bury the test output.
        configuration.logLevel = .error
        // Under ThreadSanitizer, with every suite running at once, an ordinary request can
        // outlast the default deadline; the tests of the deadline set their own.
        configuration.requestTimeout = 600
        // Sources held behind a gate send nothing for as long as a test needs; the tests of
        // the minimum transfer rate set their own.
        configuration.minSourceBytesPerSecond = 0
        configure(&configuration)
        let server = ImageServer(configuration: configuration, tracer: tracer)
        let sources = try await LoopbackHTTPServer.start()
        let client = ImageServerClient()
        let port = AsyncStream<Int>.makeStream()
        let metricsPort = AsyncStream<Int>.makeStream()
        let stopped = NIOLockedValueBox(false)
        let running = Task {
            // A server that fails to start ends the stream, so the wait below ends too.
            defer {
                port.continuation.finish()
                metricsPort.continuation.finish()
                stopped.withLockedValue { $0 = true }
            }
            try await server.run(onRunning: { port.continuation.yield($0) }, onMetricsRunning: { metricsPort.continuation.yield($0) })
        }
        var iterator = port.stream.makeAsyncIterator()
        let bound = await iterator.next()
        var metricsIterator = metricsPort.stream.makeAsyncIterator()
        let metricsBound: Int? = configuration.metricsPort == nil ? 0 : await metricsIterator.next()
        /// Stops the server, waiting at most ``eventually(within:_:)``'s bound for it (a hung
        /// shutdown fails the test instead of the whole run), then the sources.
        func stopEverything() async throws {
            running.cancel()
            if !(await eventually { stopped.withLockedValue { $0 } }) {
                Issue.record("the image server did not stop after its task's cancellation")
            }
            try await sources.stop()
        }
        guard let bound, let metricsBound else {
            try await stopEverything()
            _ = try await running.value
            throw ImageError(.cannotConnect, "the server did not start")
        }
        let harness = ImageServerHarness(server: server, port: bound, metricsPort: metricsBound, sources: sources, client: client, folder: folder)
        do {
            try await body(harness)
        } catch {
            try await stopEverything()
            throw error
        }
        try await stopEverything()
    }

    /// Serves `data` at `path` on the source server.
    package func serve(_ path: String, _ data: Data, contentType: String = "image/png", after gate: LoopbackGate? = nil) {
        sources.route(path) { _, response in
            await gate?.wait()
            await response.respond(headers: [("Content-Type", contentType)], body: Array(data))
        }
    }

    /// The server path for `spec` over the source at `path`, unsigned, with the source
    /// written `plain/…` (or in base64url).
    package func path(_ spec: String, source path: String, base64: Bool = false, signature: String = "_") -> String {
        "/\(signature)/\(Self.encode(spec))/\(Self.encodeSource(sources.url(for: path).absoluteString, base64: base64))"
    }

    /// `spec` percent-encoded for a path segment.
    package static func encode(_ spec: String) -> String {
        spec.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~=,"))) ?? spec
    }

    /// A source URL as the server's last segment: `plain/<percent-encoded>` or base64url.
    package static func encodeSource(_ url: String, base64: Bool = false) -> String {
        if base64 {
            // base64url without padding, written here rather than borrowed from the server.
            return Data(url.utf8).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        return ImageServerClient.plainSource(url)
    }

    /// The metrics listener's `/metrics`, as text.
    package func metrics() async throws -> String {
        String(decoding: try await client.get(port: metricsPort, "/metrics").body, as: UTF8.self)
    }

    /// Whether `/metrics` shows `line` within a while (polled every 10 ms).
    package func eventuallyShows(_ line: String) async throws -> Bool {
        for _ in 0..<6_000 {
            if try await metrics().contains(line) { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    /// GETs `path` from the image server.
    package func get(_ path: String, headers: [(String, String)] = []) async throws -> ImageServerClient.Answer {
        try await client.get(port: port, path, headers: headers)
    }
}
