import Foundation
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// `watermark=NAME[,GRAVITY[,OPACITY]][,x=…][,y=…][,scale=…][,tile=…]` draws a watermark the
/// operator configured; nothing in a native request names a file or a URL.
@Suite("ImageServer watermarks", .serialized, .timeLimit(.minutes(15)))
struct ImageServerWatermarkTests {
    static let red = Image(bitmap: Bitmap(width: 10, height: 10, pixels: Array(repeating: [255, 0, 0, 255], count: 100).flatMap { $0 }))

    @Test func drawsAConfiguredWatermark() async throws {
        var pixels = [UInt8]()
        for _ in 0..<(64 * 48) { pixels += [0, 0, 255, 255] }
        let blue = try ImageCodersManager.shared.encode(Image(bitmap: Bitmap(width: 64, height: 48, pixels: pixels)), as: .png)
        try await ImageServerHarness.run(configure: { $0.watermarks = ["logo": Self.red] }) { harness in
            harness.serve("/b.png", blue)
            let corner = try await harness.get(harness.path("watermark=logo,topleft|format=png", source: "/b.png"))
            #expect(corner.status == 200)
            let bitmap = try corner.image().bitmap
            #expect(bitmap.rgba8(x: 0, y: 0) == RGBA8(red: 255, green: 0, blue: 0))
            #expect(bitmap.rgba8(x: 9, y: 9) == RGBA8(red: 255, green: 0, blue: 0))
            #expect(bitmap.rgba8(x: 10, y: 10) == RGBA8(red: 0, green: 0, blue: 255))
            let faint = try await harness.get(harness.path("watermark=logo,bottomright,0.5|format=png", source: "/b.png")).image().bitmap
            let mixed = faint.rgba8(x: 63, y: 47)
            #expect((60...230).contains(Int(mixed.red)) && (60...230).contains(Int(mixed.blue)), "half red, half blue: \(mixed)")
            #expect(faint.rgba8(x: 0, y: 0) == RGBA8(red: 0, green: 0, blue: 255))
            // Defaults: bottom right, opaque.
            let plain = try await harness.get(harness.path("watermark=logo|format=png", source: "/b.png")).image().bitmap
            #expect(plain.rgba8(x: 60, y: 45) == RGBA8(red: 255, green: 0, blue: 0))
            // Offsets in percent of the image's side, and a size against the image's.
            let moved = try await harness.get(harness.path("watermark=logo,topleft,1,x=50p,y=2|format=png", source: "/b.png")).image().bitmap
            #expect(moved.rgba8(x: 32, y: 2) == RGBA8(red: 255, green: 0, blue: 0))
            #expect(moved.rgba8(x: 31, y: 2) == RGBA8(red: 0, green: 0, blue: 255))
            let scaled = try await harness.get(harness.path("watermark=logo,topleft,1,scale=x0.5|format=png", source: "/b.png")).image().bitmap
            #expect(scaled.rgba8(x: 23, y: 23) == RGBA8(red: 255, green: 0, blue: 0))
            #expect(scaled.rgba8(x: 24, y: 24) == RGBA8(red: 0, green: 0, blue: 255))
            // Copies spread over the image: 6 across, 4 down.
            let spread = try await harness.get(harness.path("watermark=logo,center,1,tile=spread|format=png", source: "/b.png")).image().bitmap
            #expect(spread.rgba8(x: 55, y: 40) == RGBA8(red: 255, green: 0, blue: 0))
            #expect(spread.rgba8(x: 62, y: 40) == RGBA8(red: 0, green: 0, blue: 255))
        }
    }

    @Test func imgproxysWatermarkTakesOffsetsScaleAndReplication() async throws {
        var pixels = [UInt8]()
        for _ in 0..<(64 * 48) { pixels += [0, 0, 255, 255] }
        let blue = try ImageCodersManager.shared.encode(Image(bitmap: Bitmap(width: 64, height: 48, pixels: pixels)), as: .png)
        let (red, navy) = (RGBA8(red: 255, green: 0, blue: 0), RGBA8(red: 0, green: 0, blue: 255))
        try await ImageServerHarness.run(configure: {
            $0.dialects = [.imgproxy]
            $0.watermarks = [ImgproxyConfiguration.watermarkName: Self.red]
        }) { harness in
            harness.serve("/b.png", blue)
            let source = harness.sources.url(for: "/b.png").absoluteString
            // South-east, 4 and 2 pixels in, fitted into a quarter of the result: 12 × 12.
            let placed = try await harness.get("/insecure/wm:1:soea:4:2:0.25/f:png/plain/\(source)").image().bitmap
            #expect(placed.rgba8(x: 48, y: 34) == red && placed.rgba8(x: 59, y: 45) == red)
            #expect(placed.rgba8(x: 60, y: 45) == navy && placed.rgba8(x: 47, y: 34) == navy)
            // Replicated 6 pixels apart across, touching down: copies from x = 3, every 16.
            let tiled = try await harness.get("/insecure/wm:1:re:6:0/f:png/plain/\(source)").image().bitmap
            #expect([3, 12, 19, 28, 35, 51, 60].allSatisfy { tiled.rgba8(x: $0, y: 0) == red && tiled.rgba8(x: $0, y: 47) == red })
            #expect([0, 2, 13, 18, 61, 63].allSatisfy { tiled.rgba8(x: $0, y: 20) == navy })
        }
    }

    @Test func refusesNamesPathsAndURLs() async throws {
        try await ImageServerHarness.run(configure: { $0.watermarks = ["logo": Self.red] }) { harness in
            harness.serve("/a.png", try ImageServerHarness.png())
            for bad in [
                "watermark=other", "watermark=/etc/passwd", "watermark=http://example.com/x.png", "overlay=logo",
                "overlay=/etc/passwd", "watermark=logo,topleft,2", "watermark=logo,sideways", "watermark=logo,top,1,extra",
                "watermark=logo,top,1,z=3", "watermark=logo,top,1,tile=everywhere", "watermark=logo,top,1,scale=0", "watermark=logo,top,1,x=101p",
                "watermark=logo,top,1,scale=x",
            ] {
                let answer = try await harness.get(harness.path(bad, source: "/a.png"))
                #expect(answer.status == 400, "\(bad)")
            }
            #expect(harness.sources.requests.isEmpty)
        }
    }
}
