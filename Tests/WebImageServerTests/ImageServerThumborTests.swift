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

    /// A PNG of `width` × `height` in one opaque colour.
    static func solid(_ width: Int, _ height: Int, _ colour: [UInt8]) throws -> Data {
        let pixels = Array(repeating: colour, count: width * height).flatMap { $0 }
        return try ImageCodersManager.shared.encode(Image(bitmap: Bitmap(width: width, height: height, pixels: pixels)), as: .png)
    }

    static let red = RGBA8(red: 255, green: 0, blue: 0)
    static let blue = RGBA8(red: 0, green: 0, blue: 255)

    @Test func watermarksAreFetchedAndDrawnAsThumborDrawsThem() async throws {
        try await ImageServerHarness.run(configure: { $0.dialects = [.thumbor] }) { harness in
            harness.serve("/b.png", try Self.solid(64, 48, [0, 0, 255, 255]))
            harness.serve("/mark.png", try Self.solid(10, 10, [255, 0, 0, 255]))
            let mark = harness.sources.url(for: "/mark.png").absoluteString.replacingOccurrences(of: "http://", with: "")
            func drawn(_ filters: String) async throws -> Bitmap {
                let answer = try await harness.get(Self.path(harness, "filters:\(filters):format(png)", source: "/b.png", signed: false))
                #expect(answer.status == 200, "\(filters)")
                return try answer.image().bitmap
            }
            let corner = try await drawn("watermark(\(mark),2,3,0)")
            #expect(corner.rgba8(x: 2, y: 3) == Self.red && corner.rgba8(x: 11, y: 12) == Self.red)
            #expect(corner.rgba8(x: 1, y: 3) == Self.blue && corner.rgba8(x: 12, y: 13) == Self.blue)
            // Half its width, from the right and bottom edges: 32 × 32 at (32, 16).
            let scaled = try await drawn("watermark(\(mark),-0,-0,0,50,none)")
            #expect(scaled.rgba8(x: 32, y: 16) == Self.red && scaled.rgba8(x: 63, y: 47) == Self.red)
            #expect(scaled.rgba8(x: 31, y: 47) == Self.blue && scaled.rgba8(x: 32, y: 15) == Self.blue)
            // Spread: 6 across with no gap (4 pixels spare over 5 gaps), 4 down 2 apart
            // (8 spare over 3 gaps).
            let spread = try await drawn("watermark(\(mark),repeat,repeat,0)")
            #expect(spread.rgba8(x: 0, y: 0) == Self.red && spread.rgba8(x: 59, y: 45) == Self.red && spread.rgba8(x: 10, y: 12) == Self.red)
            #expect(spread.rgba8(x: 60, y: 0) == Self.blue && spread.rgba8(x: 0, y: 10) == Self.blue && spread.rgba8(x: 0, y: 46) == Self.blue)
            // ALPHA 50: thumbor's alpha 255 - 127 over blue.
            let faint = try await drawn("watermark(\(mark),0,0,50)").rgba8(x: 0, y: 0)
            #expect(abs(Int(faint.red) - 128) <= 1 && abs(Int(faint.blue) - 127) <= 1, "\(faint)")
            // The watermark is a source like any other: fetched once into the source cache.
            #expect(harness.sources.requestCount(for: "/mark.png") == 1)
            // A watermark its host does not have: 400, as thumbor answers.
            let missing = mark.replacingOccurrences(of: "mark.png", with: "nothing.png")
            #expect(try await harness.get(Self.path(harness, "filters:watermark(\(missing),0,0,0)", source: "/b.png", signed: false)).status == 400)
        }
    }

    @Test func hostileWatermarksGetTheAnswersOfAHostileSource() async throws {
        let forbidden = try await ImageServerSSRFTests.forbiddenServer()
        let secret = forbidden.url(for: "/secret.png").absoluteString.replacingOccurrences(of: "http://", with: "")
        // Private addresses not fetched, 127.0.0.1 allowed by name: a watermark on 127.0.0.2
        // is refused where it would connect, as that source is.
        try await ImageServerHarness.run(configure: {
            $0.dialects = [.thumbor]
            $0.allowsPrivateSources = false
            $0.allowedSourceAddresses = ["127.0.0.1"]
        }) { harness in
            harness.serve("/b.png", try Self.solid(64, 48, [0, 0, 255, 255]))
            #expect(try await harness.get(Self.path(harness, "20x10", source: "/b.png", signed: false)).status == 200)
            let source = try await harness.get("/unsafe/20x10/\(secret)")
            let watermark = try await harness.get(Self.path(harness, "20x10/filters:watermark(\(secret),0,0,0)", source: "/b.png", signed: false))
            #expect(source.status == 403)
            #expect(watermark.status == source.status)
            #expect(String(decoding: watermark.body, as: UTF8.self).contains("address not allowed"))
            // Through a redirect from an allowed host, the same.
            let target = forbidden.url(for: "/secret.png").absoluteString
            harness.sources.route("/jump.png") { _, response in
                await response.respond(status: 302, headers: [("Location", target)])
            }
            let jump = harness.sources.url(for: "/jump.png").absoluteString.replacingOccurrences(of: "http://", with: "")
            #expect(try await harness.get(Self.path(harness, "filters:watermark(\(jump),0,0,0)", source: "/b.png", signed: false)).status == 403)
        }
        // A host off the allow-list: 403 before anything is fetched, for the watermark as for the source.
        try await ImageServerHarness.run(configure: {
            $0.dialects = [.thumbor]
            $0.allowedHosts = ["127.0.0.1"]
        }) { harness in
            harness.serve("/b.png", try Self.solid(64, 48, [0, 0, 255, 255]))
            #expect(try await harness.get("/unsafe/20x10/\(secret)").status == 403)
            #expect(try await harness.get(Self.path(harness, "filters:watermark(\(secret),0,0,0)", source: "/b.png", signed: false)).status == 403)
            #expect(harness.sources.requestCount(for: "/b.png") == 0, "refused before the source is fetched")
        }
        #expect(forbidden.requestCount(for: "/secret.png") == 0, "the forbidden watermark is never fetched")
        try await forbidden.stop()
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
