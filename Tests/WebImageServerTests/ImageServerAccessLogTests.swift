import Foundation
import Logging
import NIOConcurrencyHelpers
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// The access log's values that come from the request are escaped: a spec that decodes to
/// a newline or a quote cannot break the request's log line or forge another.
@Suite("ImageServer access log", .serialized, .timeLimit(.minutes(15)))
struct ImageServerAccessLogTests {
    @Test func fieldsAreEscaped() {
        #expect(AccessLogField.escaped("/_/resize=10/plain/x") == "/_/resize=10/plain/x")
        #expect(AccessLogField.escaped("a\"b\\c") == "a\\\"b\\\\c")
        #expect(AccessLogField.escaped("one\ntwo\r\tthree") == "one\\ntwo\\r\\tthree")
        #expect(AccessLogField.escaped("bell\u{7}del\u{7F}nel\u{85}ls\u{2028}") == "bell\\u{7}del\\u{7f}nel\\u{85}ls\\u{2028}")
        #expect(AccessLogField.escaped("é✓") == "é✓")
    }

    @Test func aSpecThatDecodesToANewlineCannotForgeALine() async throws {
        let log = NIOLockedValueBox<[MetadataRecordingLogHandler.Entry]>([])
        try await ImageServerHarness.run(configure: {
            $0.logLevel = .info
            $0.makeLogHandler = { _ in MetadataRecordingLogHandler(log: log) }
        }) { harness in
            harness.serve("/a.png", try ImageServerHarness.png())
            // An unknown operation's name is quoted in the error: here, a quote and a newline
            // followed by what would pass for a request's line.
            let forged = "fake\"\nlevel=info message=request status=200 path=\"/forged"
            let answer = try await harness.get(harness.path(forged, source: "/a.png"))
            #expect(answer.status == 400)
            let line = try #require(log.withLockedValue { $0.last { $0.message == "request" && $0.metadata["status"] == "400" } })
            for (key, value) in line.metadata {
                #expect(!value.contains("\n") && !value.contains("\r"), "\(key): \(value)")
                // Every quote in a value is escaped.
                #expect(!value.replacingOccurrences(of: "\\\"", with: "").contains("\""), "\(key): \(value)")
            }
            let error = try #require(line.metadata["error"])
            #expect(error.contains("\\n"), "the newline is kept, escaped: \(error)")
        }
    }
}
