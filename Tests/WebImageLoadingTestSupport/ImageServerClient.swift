import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import WebImage
import WebImageTestSupport

/// An HTTP client for the image server's tests.
package struct ImageServerClient: Sendable {
    /// An answer of the image server.
    package struct Answer: Sendable {
        package let status: Int
        package let headers: HTTPHeaders
        package let body: Data

        /// The decoded image in the body.
        package func image() throws -> Image { try ImageCodersManager.shared.decode(body) }
    }

    /// One client for every test in the process, never shut down (as `HTTPClient.shared`
    /// is). AsyncHTTPClient stops the whole process when a client is deinitialised without
    /// a shutdown, so a client per test took every other test down with it whenever a
    /// request threw before the test reached its `shutdown()`. It waits as long as a busy
    /// test machine needs for one of its connections (AsyncHTTPClient fails a request
    /// queued for a connection longer than its connect timeout, ten seconds by default).
    private static let shared = HTTPClient(
        eventLoopGroupProvider: .singleton,
        configuration: HTTPClient.Configuration(
            timeout: .init(connect: .seconds(90), read: .seconds(300)),
            connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 16)
        )
    )

    package init() {}

    /// The source segment of an image-server path for `url` in its plain form:
    /// `plain/<percent-encoded URL>`.
    package static func plainSource(_ url: String) -> String {
        "plain/" + (url.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? url)
    }

    /// GETs `path` from the server on `port` of 127.0.0.1, on a connection of its own.
    ///
    /// The request says `Connection: close`, so no connection is ever used twice. A kept-alive
    /// connection raced the server's idle timeout: twice on CI's loaded machine a test's task
    /// was held for over ten seconds between two requests, the server closed the idle
    /// connection, and the client, whose event loop was as starved, wrote the next request
    /// into it before it saw the close and failed with `remoteConnectionClosed` (once with
    /// `I/O on closed channel`) — a request the server never received. A fresh connection
    /// per request costs a loopback handshake and cannot meet a closing one.
    package func get(port: Int, _ path: String, headers: [(String, String)] = []) async throws -> Answer {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.headers.add(name: "Connection", value: "close")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        // Long enough for a loaded machine: a request whose answer took over 60 s under
        // ThreadSanitizer, with builds beside it, once failed a test that had nothing wrong.
        let response = try await Self.shared.execute(request, timeout: .seconds(300))
        let body = try await response.body.collect(upTo: 64 << 20)
        return Answer(status: Int(response.status.code), headers: response.headers, body: Data(buffer: body))
    }

    /// Waits until `/health` on `port` answers, for up to ten seconds.
    package func waitUntilReachable(port: Int) async throws {
        for _ in 0..<200 {
            if let answer = try? await get(port: port, "/health"), answer.status == 200 { return }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        throw ImageError(.cannotConnect, "nothing answers on port \(port)")
    }
}
