import Foundation
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// Connections that send nothing useful are closed: a request head that does not complete
/// within the idle time-out, a kept-alive connection left idle, and connections beyond
/// the cap (which are closed as they arrive).
@Suite("ImageServer connections", .timeLimit(.minutes(15)))
struct ImageServerConnectionTests {
    // The time-outs leave a loaded machine (ThreadSanitizer, parallel suites on a starved
    // cooperative pool) time to send the first bytes before the server may close an idle
    // connection: 3 s was not always enough, and once, with every suite running, 10 s was
    // not either (the connection was closed before its first bytes were sent).
    @Test func aHalfSentRequestHeadIsClosedAfterTheTimeOut() async throws {
        try await ImageServerHarness.run(configure: { $0.idleTimeout = 60 }) { harness in
            let connection = try await RawTCPConnection(port: harness.port)
            try await connection.send("GET /hea")
            #expect(await connection.waitForClose(within: 600), "the server closed the connection")
            #expect(connection.received.isEmpty)
        }
    }

    @Test func anIdleKeptAliveConnectionIsClosed() async throws {
        try await ImageServerHarness.run(configure: { $0.idleTimeout = 60 }) { harness in
            let connection = try await RawTCPConnection(port: harness.port)
            try await connection.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await connection.waitForClose(within: 600), "the server closed the idle connection")
            #expect(connection.received.hasPrefix("HTTP/1.1 200"), "the request was answered first")
        }
    }

    @Test func connectionsOverTheCapAreClosedAndTheOthersCarryOn() async throws {
        try await ImageServerHarness.run(configure: {
            $0.maxConnections = 2
            $0.idleTimeout = 600
        }) { harness in
            let first = try await RawTCPConnection(port: harness.port)
            let second = try await RawTCPConnection(port: harness.port)
            // Both are held: each has been answered once.
            for connection in [first, second] {
                try await connection.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(await eventually { connection.received.contains("{\"status\":\"ok\"}") })
            }
            let third = try await RawTCPConnection(port: harness.port)
            #expect(await third.waitForClose(within: 120), "the third connection is refused")
            #expect(third.received.isEmpty)
            #expect(!first.isClosed && !second.isClosed)
            await first.close()
            // The place freed is taken again (once the server has seen the close).
            var answered = false
            for _ in 0..<100 where !answered {
                let next = try await RawTCPConnection(port: harness.port)
                // Until the server has seen the close, the new connection is over the cap and
                // may be closed before the request is even written.
                guard (try? await next.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")) != nil else { continue }
                #expect(await eventually { next.received.contains("{\"status\":\"ok\"}") || next.isClosed })
                answered = next.received.contains("{\"status\":\"ok\"}")
                await next.close()
            }
            #expect(answered, "a new connection is served once another has closed")
            await second.close()
        }
    }

    @Test func aClientThatStopsReadingIsClosedAfterTheWriteTimeOut() async throws {
        try await ImageServerHarness.run(configure: {
            $0.maxConnections = 1
            $0.idleTimeout = 600
            $0.writeTimeout = 1
            // Under ThreadSanitizer the 4-megapixel decode and encode take many seconds.
            $0.requestTimeout = 600
        }) { harness in
            // A BMP is not compressed: the answer is 12 MB or more, more than the socket
            // buffers between the server and a client that reads nothing (on loopback the
            // server's send buffer alone may grow to a few MB).
            harness.serve("/large.png", try ImageServerHarness.png(width: 2_000, height: 2_000))
            let stalled = try await RawTCPConnection(port: harness.port, reads: false)
            try await stalled.send("GET \(harness.path("format=bmp", source: "/large.png")) HTTP/1.1\r\nHost: x\r\n\r\n")
            // The one place is the stalled client's until its answer has backed up for the
            // write time-out; then it is closed and a new connection is served.
            var answered = false
            for _ in 0..<6_000 where !answered {
                let next = try await RawTCPConnection(port: harness.port)
                if (try? await next.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")) != nil {
                    _ = await eventually { next.received.contains("{\"status\":\"ok\"}") || next.isClosed }
                    answered = next.received.contains("{\"status\":\"ok\"}")
                }
                await next.close()
                if !answered { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(answered, "the stalled client's connection was closed and its place served another")
            await stalled.close()
        }
    }
}
