import Foundation
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// The server reads no request bodies: a request that announces one is answered 400 (405
/// for another method) as soon as its head arrives, and its connection is closed, so that
/// a body trickled a chunk at a time cannot hold a connection.
@Suite("ImageServer request bodies", .serialized, .timeLimit(.minutes(15)))
struct ImageServerRequestBodyTests {
    /// The idle time-out is far beyond the wait, so only the refusal can close the connection.
    static func run(_ body: (ImageServerHarness) async throws -> Void) async throws {
        try await ImageServerHarness.run(configure: { $0.idleTimeout = 600 }, body)
    }

    @Test func aChunkedBodyOnGETIsRefusedAtOnce() async throws {
        try await Self.run { harness in
            let connection = try await RawTCPConnection(port: harness.port)
            // One chunk, and the body never ends: today's server answers and then reads on.
            try await connection.send("GET /health HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n")
            #expect(await connection.waitForClose(within: 120), "the server closed the connection")
            let answer = connection.received
            #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer)")
            #expect(answer.lowercased().contains("connection: close"))
            #expect(answer.contains("may not have a body"))
            #expect(!answer.contains("\"status\":\"ok\""), "the request never reached the responder")
        }
    }

    @Test func aContentLengthOnHEADOrGETIsRefusedBeforeTheBodyArrives() async throws {
        try await Self.run { harness in
            for head in ["HEAD /health HTTP/1.1", "GET /_/resize=10/plain/http%3A%2F%2Fexample.com%2Fa.png HTTP/1.1"] {
                let connection = try await RawTCPConnection(port: harness.port)
                // Five bytes announced, none sent.
                try await connection.send("\(head)\r\nHost: x\r\nContent-Length: 5\r\n\r\n")
                #expect(await connection.waitForClose(within: 120), "\(head)")
                #expect(connection.received.hasPrefix("HTTP/1.1 400"), "\(head): \(connection.received)")
            }
            #expect(harness.sources.requests.isEmpty)
        }
    }

    @Test func anotherMethodWithABodyIsRefusedWith405() async throws {
        try await Self.run { harness in
            let connection = try await RawTCPConnection(port: harness.port)
            try await connection.send("POST /health HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n")
            #expect(await connection.waitForClose(within: 120))
            #expect(connection.received.hasPrefix("HTTP/1.1 405"), "\(connection.received)")
        }
    }

    @Test func aPipelinedRequestIsAnsweredBeforeTheRefusal() async throws {
        try await Self.run { harness in
            let connection = try await RawTCPConnection(port: harness.port)
            try await connection.send(
                "GET /health HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /health HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n")
            #expect(await connection.waitForClose(within: 120))
            let answer = connection.received
            let ok = try #require(answer.range(of: "HTTP/1.1 200"), "\(answer)")
            let refused = try #require(answer.range(of: "HTTP/1.1 400"), "\(answer)")
            #expect(ok.lowerBound < refused.lowerBound)
        }
    }

    @Test func anEmptyContentLengthIsNoBody() async throws {
        try await Self.run { harness in
            let connection = try await RawTCPConnection(port: harness.port)
            try await connection.send("GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
            #expect(await eventually { connection.received.contains("{\"status\":\"ok\"}") })
            #expect(!connection.isClosed)
            await connection.close()
        }
    }
}
