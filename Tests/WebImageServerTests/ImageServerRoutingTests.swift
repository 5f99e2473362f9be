import Foundation
import NIOConcurrencyHelpers
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// The router answers as the server's exact paths say: paths it would fold into `/health`
/// or `/info/…` (an empty segment, a trailing slash) reach the image route, every other
/// method is refused 405 on any path, and the access-log middleware writes every request's
/// line, `/health`'s too.
@Suite("ImageServer routing", .serialized, .timeLimit(.minutes(15)))
struct ImageServerRoutingTests {
    @Test func pathsTheRouterWouldFoldAreImagePaths() async throws {
        try await ImageServerHarness.run { harness in
            for path in ["/health/", "//health", "/health/x", "/info", "/"] {
                let answer = try await harness.get(path)
                #expect(answer.status == 400, "\(path)")
                #expect(String(decoding: answer.body, as: UTF8.self).contains("/<signature>/<spec>/<source>"), "\(path)")
                #expect(answer.headers["X-Content-Type-Options"] == ["nosniff"], "\(path)")
            }
            let info = try await harness.get("/info/")
            #expect(info.status == 400)
            #expect(String(decoding: info.body, as: UTF8.self).contains("/info/<signature>/<source>"))
            #expect(harness.sources.requests.isEmpty)
        }
    }

    @Test func anotherMethodIsRefused405OnAnyPath() async throws {
        try await ImageServerHarness.run { harness in
            for path in ["/health", "/info/_/x", "/_/resize=10/plain/x", "/"] {
                let connection = try await RawTCPConnection(port: harness.port)
                try await connection.send("DELETE \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(await eventually { connection.received.contains("only GET and HEAD are served") }, "\(path)")
                #expect(connection.received.hasPrefix("HTTP/1.1 405"), "\(path): \(connection.received)")
                #expect(connection.received.lowercased().contains("x-content-type-options: nosniff"), "\(path)")
                await connection.close()
            }
        }
    }

    @Test func theAccessLogWritesAHealthRequest() async throws {
        let log = NIOLockedValueBox<[MetadataRecordingLogHandler.Entry]>([])
        try await ImageServerHarness.run(configure: {
            $0.logLevel = .info
            $0.makeLogHandler = { _ in MetadataRecordingLogHandler(log: log) }
        }) { harness in
            let answer = try await harness.get("/health")
            #expect(answer.status == 200)
            #expect(answer.headers["X-Content-Type-Options"] == ["nosniff"])
            #expect(
                await eventually {
                    log.withLockedValue { $0.contains { $0.message == "request" && $0.metadata["path"] == "/health" } }
                })
            let line = try #require(log.withLockedValue { $0.last { $0.message == "request" && $0.metadata["path"] == "/health" } })
            #expect(line.metadata["method"] == "GET")
            #expect(line.metadata["status"] == "200")
            #expect(line.metadata["bytes"] != nil && line.metadata["ms"] != nil)
            #expect(line.metadata["error"] == nil)
        }
    }
}
