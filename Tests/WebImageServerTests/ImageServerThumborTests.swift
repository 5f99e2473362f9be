import Foundation
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// thumbor's URLs answered by a real server, signed as libthumbor's `CryptoURL` signs them,
/// beside native and imgproxy URLs on one port.
@Suite("ImageServer thumbor dialect", .serialized, .timeLimit(.minutes(15)))
struct ImageServerThumborTests {
    static let key = Array("my-secret-key".utf8)

    /// libthumbor's path for `parts` (joined by `/`, before the image) over `harness`'s
    /// source at `path`: signed with ``key``, or `unsafe`.
    static func path(_ harness: ImageServerHarness, _ parts: String, source path: String, signed: Bool = true) -> String {
        let image = harness.sources.url(for: path).absoluteString.replacingOccurrences(of: "http://", with: "")
        let rest = parts.isEmpty ? image : "\(parts)/\(image)"
        return "/\(signed ? ThumborSignature.signature(key: key, path: rest) : "unsafe")/\(rest)"
    }

    @Test func answersLibthumborURLsBesideTheOtherDialects() async throws {
        try await ImageServerHarness.run(configure: {
            $0.dialects = [.native, .imgproxy, .thumbor]
            $0.thumbor.securityKey = Self.key
        }) { harness in
            harness.serve("/a.png", try ImageServerHarness.png(width: 64, height: 48))
            // Outside fit-in thumbor crops to the box and resizes to it, enlarging.
            let fill = try await harness.get(Self.path(harness, "20x10", source: "/a.png"))
            #expect(fill.status == 200)
            #expect(fill.headers.first(name: "Content-Type") == "image/png", "the source's format")
            #expect(try fill.image().pixelSize == PixelSize(width: 20, height: 10))
            #expect(try await harness.get(Self.path(harness, "128x0", source: "/a.png")).image().pixelSize == PixelSize(width: 128, height: 96))
            // fit-in never enlarges unless upscale() says so.
            #expect(try await harness.get(Self.path(harness, "fit-in/32x32", source: "/a.png")).image().pixelSize == PixelSize(width: 32, height: 24))
            #expect(try await harness.get(Self.path(harness, "fit-in/640x480", source: "/a.png")).image().pixelSize == PixelSize(width: 64, height: 48))
            #expect(
                try await harness.get(Self.path(harness, "fit-in/128x128/filters:upscale()", source: "/a.png")).image().pixelSize
                    == PixelSize(width: 128, height: 96))
            // full-fit-in covers the box; adaptive-fit-in turns it to the picture; a half
            // pixel rounds to even outside fit-in (30 × 48 / 64 = 22.5).
            #expect(try await harness.get(Self.path(harness, "full-fit-in/32x32", source: "/a.png")).image().pixelSize == PixelSize(width: 43, height: 32))
            #expect(try await harness.get(Self.path(harness, "adaptive-fit-in/24x48", source: "/a.png")).image().pixelSize == PixelSize(width: 32, height: 24))
            #expect(try await harness.get(Self.path(harness, "30x0", source: "/a.png")).image().pixelSize == PixelSize(width: 30, height: 22))
            let filtered = try await harness.get(
                Self.path(harness, "40x40/filters:focal(40x0:64x48):rgb(10,0,0):equalize():noise(5,7):convolution(1;2;1,3,true)", source: "/a.png"))
            #expect(try filtered.image().pixelSize == PixelSize(width: 40, height: 40))
            // The manual crop, flips, the format and fill filters.
            let crop = try await harness.get(Self.path(harness, "0x0:32x16/-x-/filters:format(jpeg):quality(90)", source: "/a.png"))
            #expect(crop.headers.first(name: "Content-Type") == "image/jpeg")
            #expect(try crop.image().pixelSize == PixelSize(width: 32, height: 16))
            let filled = try await harness.get(Self.path(harness, "fit-in/100x100/filters:fill(ff0000):format(webp)", source: "/a.png"))
            #expect(filled.headers.first(name: "Content-Type") == "image/webp")
            #expect(try filled.image().pixelSize == PixelSize(width: 100, height: 100))
            // unsafe beside signed URLs, and the native and imgproxy forms on the same port.
            #expect(try await harness.get(Self.path(harness, "20x10", source: "/a.png", signed: false)).status == 200)
            #expect(try await harness.get(harness.path("resize=20x10,fill", source: "/a.png")).image().pixelSize == PixelSize(width: 20, height: 10))
            let imgproxy = try await harness.get("/insecure/rs:fill:20:10/plain/\(harness.sources.url(for: "/a.png").absoluteString)")
            #expect(try imgproxy.image().pixelSize == PixelSize(width: 20, height: 10))
            // thumbor's 400s: a bad signature, a filter not served; a missing source is 404.
            let forged = Self.path(harness, "20x10", source: "/a.png").replacingOccurrences(of: "20x10", with: "21x10")
            #expect(try await harness.get(forged).status == 400)
            #expect(try await harness.get(Self.path(harness, "filters:colorize(10,20,30,ff0000)", source: "/a.png")).status == 400)
            #expect(try await harness.get(Self.path(harness, "20x10", source: "/missing.png")).status == 404)
        }
    }

    @Test func formatByAcceptOnlyWithAutoWebPAndUnsafeRefusedWhenOff() async throws {
        try await ImageServerHarness.run(configure: {
            $0.dialects = [.thumbor]
            $0.thumbor.securityKey = Self.key
            $0.thumbor.allowsUnsafeURLs = false
        }) { harness in
            harness.serve("/a.png", try ImageServerHarness.png(width: 64, height: 48))
            let path = Self.path(harness, "20x10", source: "/a.png")
            let answer = try await harness.get(path, headers: [("Accept", "image/webp")])
            #expect(answer.headers.first(name: "Content-Type") == "image/png")
            #expect(answer.headers.first(name: "Vary") == nil)
            #expect(try await harness.get(Self.path(harness, "20x10", source: "/a.png", signed: false)).status == 400)
        }
        try await ImageServerHarness.run(configure: {
            $0.dialects = [.thumbor]
            $0.thumbor.autoWebP = true
        }) { harness in
            harness.serve("/a.png", try ImageServerHarness.png(width: 64, height: 48))
            let path = Self.path(harness, "20x10", source: "/a.png", signed: false)
            let webp = try await harness.get(path, headers: [("Accept", "image/webp,*/*")])
            #expect(webp.headers.first(name: "Content-Type") == "image/webp")
            #expect(webp.headers.first(name: "Vary") == "Accept")
            #expect(try await harness.get(path).headers.first(name: "Content-Type") == "image/png")
        }
    }

    @Test func hostileThumborURLsGetTheNativeAnswers() async throws {
        try await ImageServerHarness.run(configure: { $0.dialects = [.native, .thumbor] }) { harness in
            harness.serve("/a.png", try ImageServerHarness.png(width: 64, height: 48))
            // A result over the pixel limit: 413 in both dialects, before any work.
            let huge = try await harness.get(Self.path(harness, "16384x16384", source: "/a.png", signed: false))
            let nativeHuge = try await harness.get(harness.path("resize=16384x16384,fill", source: "/a.png"))
            #expect(huge.status == 413)
            #expect(huge.status == nativeHuge.status)
            // A side past the largest dimension: 400 in both.
            #expect(try await harness.get(Self.path(harness, "100000x10", source: "/a.png", signed: false)).status == 400)
            // Thousands of filters: refused before they are read.
            let many = "filters:" + Array(repeating: "blur(1)", count: 2000).joined(separator: ":")
            #expect(try await harness.get(Self.path(harness, many, source: "/a.png", signed: false)).status == 400)
            // A source that is not a URL, and a private address the server does not fetch.
            #expect(try await harness.get("/unsafe/300x200/%zz").status == 400)
        }
    }
}
