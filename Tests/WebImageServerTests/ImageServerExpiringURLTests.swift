import Foundation
import Testing
import WebImage
@testable import WebImageServer
@testable import WebImageTestSupport
@testable import WebImageLoadingTestSupport
@testable import WebImageServerTestSupport

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
}
