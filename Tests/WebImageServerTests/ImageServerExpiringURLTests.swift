import Foundation
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// `expires=UNIX_TIME` in a signed spec: served before it, 410 Gone after it, and the
/// signature covers it.
@Suite("ImageServer expires", .serialized, .timeLimit(.minutes(15)))
struct ImageServerExpiringURLTests {
    @Test func servesUntilTheTimeThenAnswersGone() async throws {
        let key: [UInt8] = Array("secret key".utf8)
        let signer = ImageURLSigner(key: key)
        try await ImageServerHarness.run(configure: {
            $0.allowsUnsignedURLs = false
            $0.signingKey = key
        }) { harness in
            harness.serve("/a.png", try ImageServerHarness.png())
            func signed(_ spec: String) -> String {
                let signedPath = String(harness.path(spec, source: "/a.png").dropFirst(2))
                return "/\(signer.signature(for: signedPath))\(signedPath)"
            }
            let future = Int(Date().timeIntervalSince1970) + 3600
            let live = try await harness.get(signed("resize=10|expires=\(future)"))
            #expect(live.status == 200)
            #expect(try live.image().pixelWidth == 10)
            let past = Int(Date().timeIntervalSince1970) - 1
            let gone = try await harness.get(signed("resize=10|expires=\(past)"))
            #expect(gone.status == 410)
            #expect(String(decoding: gone.body, as: UTF8.self).contains("expired"))
            // Moving the deadline without signing again breaks the signature.
            let original = signed("resize=10|expires=\(past)")
            let moved = original.replacingOccurrences(of: "expires%3D\(past)", with: "expires%3D\(future)")
                .replacingOccurrences(of: "expires=\(past)", with: "expires=\(future)")
            #expect(moved != original)
            #expect(try await harness.get(moved).status == 403)
            #expect(harness.sources.requestCount(for: "/a.png") == 1, "an expired URL fetches nothing")
            for bad in ["resize=10|expires=soon", "resize=10|expires=-5", "resize=10|expires=\(future)|expires=\(future)"] {
                #expect(try await harness.get(signed(bad)).status == 400, "\(bad)")
            }
        }
    }

    /// The `max-age` of a URL with a deadline never reaches past it (a cache in front would
    /// otherwise keep answering it), and nothing says `immutable`; 304s say the same.
    @Test func maxAgeIsCappedAtTheSecondsLeft() async throws {
        try await ImageServerHarness.run { harness in
            harness.serve("/a.png", try ImageServerHarness.png())
            let plain = try await harness.get(harness.path("resize=10", source: "/a.png"))
            #expect(plain.status == 200)
            #expect(plain.headers.first(name: "Cache-Control") == "public, max-age=31536000")
            let deadline = Int(Date().timeIntervalSince1970) + 30
            let path = harness.path("resize=10|expires=\(deadline)", source: "/a.png")
            // The first answer is made, the second comes from the result cache.
            for _ in 0..<2 {
                let answer = try await harness.get(path)
                #expect(answer.status == 200)
                let cacheControl = try #require(answer.headers.first(name: "Cache-Control"))
                #expect(!cacheControl.contains("immutable"))
                let maxAge = try #require(cacheControl.split(separator: "=").last.flatMap { Int($0) }, "\(cacheControl)")
                #expect((0...30).contains(maxAge), "\(cacheControl)")
                let eTag = try #require(answer.headers.first(name: "ETag"))
                let notModified = try await harness.get(path, headers: [("If-None-Match", eTag)])
                #expect(notModified.status == 304)
                let revalidated = try #require(notModified.headers.first(name: "Cache-Control"))
                #expect(revalidated.hasPrefix("public, max-age="))
                #expect((revalidated.split(separator: "=").last.flatMap { Int($0) } ?? .max) <= 30, "\(revalidated)")
            }
        }
        // A shorter configured max-age still wins.
        try await ImageServerHarness.run(configure: { $0.resultMaxAge = 5 }) { harness in
            harness.serve("/a.png", try ImageServerHarness.png())
            let deadline = Int(Date().timeIntervalSince1970) + 3600
            let answer = try await harness.get(harness.path("resize=10|expires=\(deadline)", source: "/a.png"))
            #expect(answer.headers.first(name: "Cache-Control") == "public, max-age=5")
        }
    }

    @Test func cacheControlCountsDownToTheDeadline() {
        let now = Date(timeIntervalSince1970: 1_000_000.25)
        #expect(ResultCache.cacheControl(maxAge: 31_536_000, expires: nil, now: now) == "public, max-age=31536000")
        #expect(ResultCache.cacheControl(maxAge: 31_536_000, expires: 1_000_030, now: now) == "public, max-age=29")
        #expect(ResultCache.cacheControl(maxAge: 10, expires: 1_000_030, now: now) == "public, max-age=10")
        #expect(ResultCache.cacheControl(maxAge: 31_536_000, expires: 1_000_000, now: now) == "public, max-age=0")
    }
}
