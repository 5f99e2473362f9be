import Foundation
import LoopbackHTTPServer
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// `webimage serve`'s signing keys fail closed: a key anyone could guess stops the server
/// at start, naming the setting; several keys verify during a rotation.
@Suite("ImageServer keys", .timeLimit(.minutes(15)))
struct ImageServerKeyTests {
    static let goodKey = String(repeating: "0123456789abcdef", count: 4)

    @Test(
        arguments: [
            (["--key", ""], [:], "--key is empty"),
            (["--key", "00112233"], [:], "--key must be at least 32 bytes"),
            (["--key", String(repeating: "zz", count: 32)], [:], "--key is not hexadecimal"),
            (["--key", String(repeating: "0", count: 63)], [:], "--key is not hexadecimal"),
            (["--key", goodKey, "--salt", ""], [:], "--salt is empty"),
            (["--key", goodKey, "--salt", "abc"], [:], "--salt is not hexadecimal"),
            (["--key", goodKey, "--insecure-unsigned"], [:], "--insecure-unsigned cannot be used with a signing key (--key)"),
            (["--insecure-unsigned"], ["WEBIMAGE_KEY": goodKey], "--insecure-unsigned cannot be used with a signing key (WEBIMAGE_KEY)"),
            ([], ["WEBIMAGE_KEY": ""], "WEBIMAGE_KEY is empty"),
            ([], ["WEBIMAGE_KEY": "00112233"], "WEBIMAGE_KEY must be at least 32 bytes"),
            ([], ["WEBIMAGE_KEY": goodKey, "WEBIMAGE_SALT": ""], "WEBIMAGE_SALT is empty"),
            ([], ["WEBIMAGE_KEY": goodKey, "WEBIMAGE_SALT": "salt"], "WEBIMAGE_SALT is not hexadecimal"),
            (["--key", goodKey, "--key", goodKey, "--salt", "00", "--salt", "01", "--salt", "02"], [:], "give one --salt, or one per --key"),
        ] as [([String], [String: String], String)])
    func aKeyAnyoneCouldGuessStopsTheServer(flags: [String], environment: [String: String], message: String) async throws {
        let scratch = TemporaryDirectory(prefix: "serve-keys")
        let output = try await CommandLineTool.run(
            ["serve", "--request-timeout", "600", "--port", "0", "--cache-dir", scratch.url.path] + flags, scratch: scratch.url, environment: environment)
        #expect(output.status == 64, "\(flags) \(environment)")
        #expect(output.standardError.contains(message), "\(output.standardError)")
        #expect(!output.standardOutput.contains("listening on"))
    }

    @Test func anyOfSeveralKeysVerifies() async throws {
        let first = ImageURLSigner(key: Array(repeating: 1, count: 32), salt: [1])
        let second = ImageURLSigner(key: Array(repeating: 2, count: 32), salt: [2])
        try await ImageServerHarness.run(configure: {
            $0.allowsUnsignedURLs = false
            $0.signingKey = Array(repeating: 1, count: 32)
            $0.signingSalt = [1]
            $0.additionalSigners = [second]
        }) { harness in
            harness.serve("/a.png", try ImageServerHarness.png())
            let signedPath = String(harness.path("resize=10", source: "/a.png").dropFirst(2))
            #expect(try await harness.get("/\(first.signature(for: signedPath))\(signedPath)").status == 200)
            #expect(try await harness.get("/\(second.signature(for: signedPath))\(signedPath)").status == 200)
            let stranger = ImageURLSigner(key: Array(repeating: 3, count: 32), salt: [2])
            #expect(try await harness.get("/\(stranger.signature(for: signedPath))\(signedPath)").status == 403)
            #expect(try await harness.get("/_\(signedPath)").status == 403)
        }
    }

    /// The bytes of hex `text` (the tool's own parser is in the executable).
    static func bytes(_ text: String) -> [UInt8] {
        let digits = Array(text.utf8)
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
    }

    @Test func theCommandAcceptsSeveralKeys() async throws {
        let scratch = TemporaryDirectory(prefix: "serve-rotation")
        let sources = try await LoopbackHTTPServer.start()
        let png = try ImageServerHarness.png()
        sources.route("/a.png") { _, response in
            await response.respond(headers: [("Content-Type", "image/png")], body: Array(png))
        }
        let oldKey = String(repeating: "11", count: 32), newKey = String(repeating: "22", count: 40)
        let server = try BackgroundProcess(
            try BuiltExecutable.url(named: "webimage"),
            [
                "serve", "--request-timeout", "600", "--port", "0", "--allow-private-sources", "--cache-dir", scratch.url.path,
                "--key", newKey, "--salt", "aa", "--key", oldKey, "--salt", "bb",
            ])
        let line = try await server.waitForLine(containing: "listening on")
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0) })
        let client = ImageServerClient()
        let signedPath = "/resize=10/" + ImageServerHarness.encodeSource(sources.url(for: "/a.png").absoluteString)
        for (key, salt) in [(newKey, "aa"), (oldKey, "bb")] {
            let signer = ImageURLSigner(key: Self.bytes(key), salt: Self.bytes(salt))
            #expect(try await client.get(port: port, "/\(signer.signature(for: signedPath))\(signedPath)").status == 200)
        }
        let crossed = ImageURLSigner(key: Self.bytes(oldKey), salt: Self.bytes("aa"))
        #expect(try await client.get(port: port, "/\(crossed.signature(for: signedPath))\(signedPath)").status == 403)
        #expect(await server.stop() == 0)
        try await sources.stop()
    }
}
