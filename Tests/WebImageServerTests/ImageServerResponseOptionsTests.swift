import Foundation
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// `filename=`, `attachment` and `cachebuster=` through the running server: the answer's
/// `Content-Disposition`, and a result-cache entry of its own per cache buster.
@Suite("ImageServer response options", .serialized, .timeLimit(.minutes(15)))
struct ImageServerResponseOptionsTests {
    /// The server path for `spec` over `/a.png`, every byte of the spec but ASCII letters and
    /// digits percent-encoded.
    static func path(_ harness: ImageServerHarness, _ spec: String) -> String {
        let encoded = spec.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyz0123456789"))!
        return "/_/\(encoded)/\(ImageServerHarness.encodeSource(harness.sources.url(for: "/a.png").absoluteString))"
    }

    @Test func filenameAndAttachmentSetContentDisposition() async throws {
        try await ImageServerHarness.run { harness in
            harness.serve("/a.png", try ImageServerHarness.png())
            let named = try await harness.get(Self.path(harness, "resize=16|filename=My Photo ü.png"))
            #expect(named.status == 200)
            #expect(
                named.headers.first(name: "Content-Disposition")
                    == "inline; filename=\"My_Photo_.png\"; filename*=UTF-8''My%20Photo%20%C3%BC.png")
            let download = try await harness.get(Self.path(harness, "resize=16|attachment|filename=a.png"))
            #expect(download.headers.first(name: "Content-Disposition") == "attachment; filename=\"a.png\"; filename*=UTF-8''a.png")
            // A name cannot say the answer is a page: it takes the answer's extension.
            let page = try await harness.get(Self.path(harness, "resize=16|attachment|filename=invoice.html"))
            #expect(page.headers.first(name: "Content-Disposition") == "attachment; filename=\"invoice.png\"; filename*=UTF-8''invoice.png")
            let webp = try await harness.get(Self.path(harness, "resize=16|format=webp|filename=a.png"))
            #expect(webp.headers.first(name: "Content-Disposition") == "inline; filename=\"a.webp\"; filename*=UTF-8''a.webp")
            let bare = try await harness.get(Self.path(harness, "attachment|resize=16"))
            #expect(bare.headers.first(name: "Content-Disposition") == "attachment")
            let none = try await harness.get(Self.path(harness, "resize=16"))
            #expect(none.headers.first(name: "Content-Disposition") == nil)
            // The name changes no pixel: one transform for all four.
            #expect(named.body == none.body && download.body == none.body)
            let metrics = try await harness.metrics()
            #expect(metrics.contains("webimage_result_cache_total{result=\"miss\"} 2"))
            #expect(metrics.contains("webimage_result_cache_total{result=\"hit\"} 4"))
        }
    }

    @Test func separatorsQuotesAndControlsNeverReachTheHeader() async throws {
        try await ImageServerHarness.run { harness in
            harness.serve("/a.png", try ImageServerHarness.png())
            let answer = try await harness.get(Self.path(harness, "resize=16|filename=../..\\x\"y\r\nSet-Cookie: a=b\u{202E}.png"))
            #expect(answer.status == 200)
            let header = try #require(answer.headers.first(name: "Content-Disposition"))
            #expect(header == "inline; filename=\"_.._x_ySet-Cookie_a_b.png\"; filename*=UTF-8''_.._x_ySet-Cookie%3A%20a%3Db.png")
            #expect(answer.headers.first(name: "Set-Cookie") == nil)
            for bad in ["resize=16|filename=..", "resize=16|filename=\r\n", "resize=16|attachment=1", "resize=16|filename=a|filename=b"] {
                let refused = try await harness.get(Self.path(harness, bad))
                #expect(refused.status == 400, "\(bad)")
                #expect(refused.headers.first(name: "Content-Disposition") == nil)
            }
        }
    }

    @Test func eachCacheBusterIsAResultOfItsOwn() async throws {
        try await ImageServerHarness.run { harness in
            harness.serve("/a.png", try ImageServerHarness.png())
            let first = try await harness.get(Self.path(harness, "resize=16|cachebuster=a"))
            let second = try await harness.get(Self.path(harness, "resize=16|cachebuster=b"))
            let again = try await harness.get(Self.path(harness, "resize=16|cachebuster=a"))
            #expect(first.status == 200 && second.status == 200 && again.status == 200)
            #expect(first.body == second.body && first.body == again.body)
            #expect(first.headers.first(name: "ETag") == second.headers.first(name: "ETag"))
            let metrics = try await harness.metrics()
            #expect(metrics.contains("webimage_result_cache_total{result=\"miss\"} 2"), "a and b are transformed apiece")
            #expect(metrics.contains("webimage_result_cache_total{result=\"hit\"} 1"), "a again is the cached result")
            #expect(harness.sources.requestCount(for: "/a.png") == 1)
            #expect(try await harness.get(Self.path(harness, "resize=16|cachebuster=a b")).status == 400)
        }
    }
}
