import Foundation
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// imgproxy's URLs answered by a real server beside native ones on one port, written the
/// way the PyPI `imgproxy` builder writes them (`/<signature>/g:ce/rs:TYPE:W:H:ENLARGE/<base64url>[.ext]`).
@Suite("ImageServer imgproxy dialect", .serialized, .timeLimit(.minutes(15)))
struct ImageServerImgproxyTests {
    static let key = ImgproxySignatureTests.key
    static let salt = ImgproxySignatureTests.salt

    /// The builder's path for `options` over `harness`'s source at `path`, signed with
    /// `key` and `salt` when given (`insecure` otherwise, as the builder writes it).
    static func builderPath(
        _ harness: ImageServerHarness, _ options: String, source path: String, extension fileExtension: String = "", signed: Bool = false
    ) -> String {
        let encoded = ImageServerHarness.encodeSource(harness.sources.url(for: path).absoluteString, base64: true)
        let rest = "/\(options)/\(encoded)" + (fileExtension.isEmpty ? "" : ".\(fileExtension)")
        let signature = signed ? ImgproxySignature.signature(key: key, salt: salt, path: rest, size: 32) : "insecure"
        return "/\(signature)\(rest)"
    }

    @Test func answersBuilderURLsBesideNativeOnes() async throws {
        try await ImageServerHarness.run(configure: { $0.dialects = [.native, .imgproxy] }) { harness in
            harness.serve("/a.png", try ImageServerHarness.png(width: 64, height: 48))
            let fill = try await harness.get(Self.builderPath(harness, "g:ce/rs:fill:20:10:0", source: "/a.png"))
            #expect(fill.status == 200)
            #expect(fill.headers.first(name: "Content-Type") == "image/png", "the source's format")
            #expect(try fill.image().pixelSize == PixelSize(width: 20, height: 10))
            let webp = try await harness.get(Self.builderPath(harness, "g:ce/rs:auto:32:0:0", source: "/a.png", extension: "webp"))
            #expect(webp.status == 200)
            #expect(webp.headers.first(name: "Content-Type") == "image/webp")
            #expect(try webp.image().pixelSize == PixelSize(width: 32, height: 24))
            // auto: a landscape picture in a square box is fitted, not filled.
            let auto = try await harness.get(Self.builderPath(harness, "q:50/g:ce/rs:auto:16:16:0", source: "/a.png"))
            #expect(try auto.image().pixelSize == PixelSize(width: 16, height: 12))
            let landscape = try await harness.get(Self.builderPath(harness, "g:ce/rs:auto:20:10:0", source: "/a.png"))
            #expect(try landscape.image().pixelSize == PixelSize(width: 20, height: 10))
            // No enlarging unless asked.
            let small = try await harness.get(Self.builderPath(harness, "g:ce/rs:fit:640:480:0", source: "/a.png"))
            #expect(try small.image().pixelSize == PixelSize(width: 64, height: 48))
            let large = try await harness.get(Self.builderPath(harness, "g:ce/rs:fit:128:128:1", source: "/a.png"))
            #expect(try large.image().pixelSize == PixelSize(width: 128, height: 96))
            // The plain form with an extension, and padding.
            let plain = try await harness.get(
                "/insecure/rs:fit:32:32/pd:4/plain/\(harness.sources.url(for: "/a.png").absoluteString)@jpg")
            #expect(plain.headers.first(name: "Content-Type") == "image/jpeg")
            #expect(try plain.image().pixelSize == PixelSize(width: 40, height: 32))
            // The native form on the same port.
            let native = try await harness.get(harness.path("resize=20x10,fill", source: "/a.png"))
            #expect(native.status == 200)
            #expect(try native.image().pixelSize == PixelSize(width: 20, height: 10))
            // imgproxy's own answers: an unknown option, a Pro option, one not served yet.
            #expect(try await harness.get(Self.builderPath(harness, "nope:1", source: "/a.png")).status == 404)
            let pro = try await harness.get(Self.builderPath(harness, "ra:lanczos3", source: "/a.png"))
            #expect(pro.status == 404)
            #expect(String(decoding: pro.body, as: UTF8.self).contains("Pro"))
            #expect(try await harness.get(Self.builderPath(harness, "mw:10", source: "/a.png")).status == 400)
            #expect(try await harness.get(Self.builderPath(harness, "exp:1000", source: "/a.png")).status == 404)
            #expect(try await harness.get(Self.builderPath(harness, "w:10", source: "/missing.png")).status == 404)
        }
    }

    @Test func signedURLsAndTheFormatByAccept() async throws {
        try await ImageServerHarness.run(configure: {
            $0.dialects = [.imgproxy]
            $0.allowsUnsignedURLs = false
            $0.imgproxy.keys = [Self.key]
            $0.imgproxy.salts = [Self.salt]
        }) { harness in
            harness.serve("/a.png", try ImageServerHarness.png(width: 64, height: 48))
            let signed = try await harness.get(Self.builderPath(harness, "g:ce/rs:fill:20:10:0", source: "/a.png", signed: true))
            #expect(signed.status == 200)
            #expect(try signed.image().pixelSize == PixelSize(width: 20, height: 10))
            #expect(signed.headers.first(name: "Vary") == nil)
            // Accept decides nothing unless the operator turns detection on.
            let accepting = try await harness.get(
                Self.builderPath(harness, "g:ce/rs:fill:20:10:0", source: "/a.png", signed: true), headers: [("Accept", "image/webp")])
            #expect(accepting.headers.first(name: "Content-Type") == "image/png")
            #expect(try await harness.get(Self.builderPath(harness, "g:ce/rs:fill:20:10:0", source: "/a.png")).status == 403)
            // With imgproxy alone, a native path is read as imgproxy's, and refused.
            #expect(try await harness.get(harness.path("resize=20x10,fill", source: "/a.png")).status == 403)
        }
        try await ImageServerHarness.run(configure: {
            $0.dialects = [.imgproxy]
            $0.imgproxy.autoWebP = true
        }) { harness in
            harness.serve("/a.png", try ImageServerHarness.png(width: 64, height: 48))
            let path = Self.builderPath(harness, "g:ce/rs:fill:20:10:0", source: "/a.png")
            let webp = try await harness.get(path, headers: [("Accept", "image/webp,*/*")])
            #expect(webp.headers.first(name: "Content-Type") == "image/webp")
            #expect(webp.headers.first(name: "Vary") == "Accept")
            #expect(try await harness.get(path).headers.first(name: "Content-Type") == "image/png")
        }
    }

    /// imgproxy answers a source's 4xx with that status, a 5xx with 502 ("Source image is
    /// unreachable"); the native dialect keeps its own answers (404, else 502) on the same
    /// server.
    @Test func aSourcesFailingStatusIsAnsweredAsImgproxyAnswersIt() async throws {
        try await ImageServerHarness.run(configure: { $0.dialects = [.native, .imgproxy] }) { harness in
            for status in [403, 451, 500] {
                harness.sources.route("/s\(status).png") { _, response in
                    await response.respond(status: status, headers: [("Content-Type", "text/plain")], body: Array("no".utf8))
                }
            }
            #expect(try await harness.get(Self.builderPath(harness, "w:10", source: "/missing.png")).status == 404)
            let forbidden = try await harness.get(Self.builderPath(harness, "w:10", source: "/s403.png"))
            #expect(forbidden.status == 403)
            #expect(String(decoding: forbidden.body, as: UTF8.self).contains("unreachable"))
            #expect(try await harness.get(Self.builderPath(harness, "w:10", source: "/s451.png")).status == 451)
            #expect(try await harness.get(Self.builderPath(harness, "w:10", source: "/s500.png")).status == 502)
            #expect(try await harness.get("/insecure/raw:1/plain/\(harness.sources.url(for: "/s403.png").absoluteString)").status == 403)
            // The native form of the same source: 502 for a 403, as before.
            #expect(try await harness.get(harness.path("resize=10", source: "/s403.png")).status == 502)
            #expect(try await harness.get(harness.path("resize=10", source: "/missing.png")).status == 404)
        }
    }

    @Test func hostileURLsGetTheNativeAnswers() async throws {
        try await ImageServerHarness.run(configure: { $0.dialects = [.native, .imgproxy] }) { harness in
            harness.serve("/a.png", try ImageServerHarness.png(width: 64, height: 48))
            // A result over the pixel limit: 413 in both dialects, before any work.
            let huge = try await harness.get(Self.builderPath(harness, "rs:fit:16384:16384:1", source: "/a.png"))
            let nativeHuge = try await harness.get(harness.path("resize=16384x16384,inside", source: "/a.png"))
            #expect(huge.status == 413)
            #expect(huge.status == nativeHuge.status)
            // A side past the largest dimension: 400 in both.
            let wide = try await harness.get(Self.builderPath(harness, "w:100000", source: "/a.png"))
            let nativeWide = try await harness.get(harness.path("resize=100000", source: "/a.png"))
            #expect(wide.status == 400)
            #expect(wide.status == nativeWide.status)
            // Thousands of options: refused before they are read.
            let many = "/insecure/" + String(repeating: "q:80/", count: 2000) + "plain/" + harness.sources.url(for: "/a.png").absoluteString
            #expect(try await harness.get(many).status == 400)
            // Bad base64: imgproxy's 404 for a URL it cannot read.
            #expect(try await harness.get("/insecure/rs:fit:10:10/!!!notbase64").status == 404)
        }
    }
}
