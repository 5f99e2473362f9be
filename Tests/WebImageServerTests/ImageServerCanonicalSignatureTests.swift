import Foundation
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// A signature verifies only as the one base64url text the signer writes: the spare low
/// bits of its last character, which a lenient decoder ignores, must not give a second
/// spelling of the same URL.
@Suite("ImageServer canonical signatures", .serialized, .timeLimit(.minutes(15)))
struct ImageServerCanonicalSignatureTests {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    /// `signature` with the two unused low bits of its last character set to `bits`.
    static func respelled(_ signature: String, lowBits bits: Int) throws -> String {
        let last = try #require(signature.last)
        let value = try #require(alphabet.firstIndex(of: last))
        return String(signature.dropLast()) + String(alphabet[(value & ~0b11) | bits])
    }

    @Test func theSpareBitsOfTheLastCharacterDoNotVerify() throws {
        let signer = ImageURLSigner(key: Array("secret key".utf8), salt: Array("salt".utf8))
        let path = "/resize=10/plain/http%3A%2F%2Fimages.example.com%2Fa.png"
        let signature = signer.signature(for: path)
        // A 32-byte MAC is 43 characters: 256 bits in 258, the last two unused.
        #expect(signature.count == 43)
        #expect(signer.isValid(signature, for: path))
        for bits in 0..<4 {
            let other = try Self.respelled(signature, lowBits: bits)
            guard other != signature else { continue }
            // The lenient decoder reads the same MAC from it…
            #expect(Base64URL.decode(other) == Base64URL.decode(signature))
            // …but only the canonical text verifies.
            #expect(!signer.isValid(other, for: path), "\(other)")
        }
        #expect(!signer.isValid(signature + "A", for: path))
        #expect(!signer.isValid(String(signature.dropLast()), for: path))
        #expect(!signer.isValid("", for: path))
    }

    @Test func aRespelledSignatureIsAnsweredForbidden() async throws {
        let key: [UInt8] = Array("secret key".utf8)
        try await ImageServerHarness.run(configure: {
            $0.allowsUnsignedURLs = false
            $0.signingKey = key
        }) { harness in
            harness.serve("/a.png", try ImageServerHarness.png())
            let signedPath = String(harness.path("resize=10", source: "/a.png").dropFirst(2))
            let signature = ImageURLSigner(key: key).signature(for: signedPath)
            #expect(try await harness.get("/\(signature)\(signedPath)").status == 200)
            let last = try #require(signature.last.flatMap { Self.alphabet.firstIndex(of: $0) })
            let flipped = try Self.respelled(signature, lowBits: (last & 0b11) ^ 0b11)
            #expect(flipped != signature)
            let answer = try await harness.get("/\(flipped)\(signedPath)")
            #expect(answer.status == 403)
            #expect(String(decoding: answer.body, as: UTF8.self).contains("the signature does not match"))
        }
    }
}
