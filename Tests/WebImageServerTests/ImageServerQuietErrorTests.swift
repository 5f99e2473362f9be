import Foundation
import LoopbackHTTPServer
import NIOConcurrencyHelpers
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// A failed source tells the client only the class of the failure — never a URL, host,
/// address or upstream status — while the request's log line keeps the detail.
@Suite("ImageServer quiet errors", .serialized, .timeLimit(.minutes(15)))
struct ImageServerQuietErrorTests {
    @Test func bodiesNameTheClassAndLogsTheDetail() async throws {
        let log = NIOLockedValueBox<[MetadataRecordingLogHandler.Entry]>([])
        try await ImageServerHarness.run(configure: {
            $0.logLevel = .info
            $0.makeLogHandler = { _ in MetadataRecordingLogHandler(log: log) }
        }) { harness in
            harness.sources.route("/missing.png") { _, response in
                await response.respond(status: 404, headers: [("Content-Type", "text/plain")], body: Array("nope".utf8))
            }
            harness.sources.route("/broken.png") { _, response in
                await response.respond(status: 500, headers: [("Content-Type", "text/plain")], body: Array("oops".utf8))
            }
            let port = String(harness.sources.port)
            for (path, status, message, upstream) in [
                ("/missing.png", 404, "source not found", "404"), ("/broken.png", 502, "source refused", "500"),
            ] {
                let answer = try await harness.get(harness.path("resize=10", source: path))
                let body = String(decoding: answer.body, as: UTF8.self)
                #expect(answer.status == status, "\(path)")
                #expect(body == "{\"error\":\"\(message)\",\"status\":\(status)}\n", "\(body)")
                #expect(!body.contains("127.0.0.1") && !body.contains(port) && !body.contains(path) && !body.contains("answered \(upstream)"))
                let line = log.withLockedValue { entries in
                    entries.last { $0.message == "request" && $0.metadata["status"] == String(status) }
                }
                let detail = try #require(line?.metadata["detail"], "the log line of \(path) has the detail")
                #expect(detail.contains(upstream) && detail.contains("127.0.0.1:\(port)\(path)"), "\(detail)")
                #expect(line?.metadata["error"] == message)
            }
        }
    }

    @Test func everyResponseSaysNoSniff() async throws {
        try await ImageServerHarness.run { harness in
            harness.serve("/a.png", try ImageServerHarness.png())
            for path in [harness.path("resize=10", source: "/a.png"), "/health", "/_/resize=banana/plain/x", "/nothing"] {
                let answer = try await harness.get(path)
                #expect(answer.headers.first(name: "X-Content-Type-Options") == "nosniff", "\(path) \(answer.status)")
            }
            #expect(try await harness.get("/metrics").status != 200, "/metrics is not on the public port")
            #expect(try await harness.metrics().contains("webimage_requests_total"))
        }
    }
}
