import Foundation
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// `resize=WxH,inside` through the running server: imgproxy's `rs:fit` and thumbor's
/// `fit-in`, the picture scaled into the box with no canvas.
@Suite("ImageServer inside resize", .serialized, .timeLimit(.minutes(15)))
struct ImageServerInsideResizeTests {
    @Test func aThreeByTwoPhotoComesOutThreeByTwoWithNoAlpha() async throws {
        try await ImageServerHarness.run { harness in
            harness.serve("/photo.png", try ImageServerHarness.png(width: 600, height: 400))
            let inside = try await harness.get(harness.path("resize=512x512,inside|format=png", source: "/photo.png"))
            #expect(inside.status == 200)
            let bitmap = try inside.image().bitmap
            #expect(bitmap.size == PixelSize(width: 512, height: 341))
            var transparent = 0
            for y in 0..<bitmap.height {
                for x in 0..<bitmap.width where bitmap.rgba8(x: x, y: y).alpha != 255 { transparent += 1 }
            }
            #expect(transparent == 0)
            // fit keeps its canvas: the box, with clear bars above and below.
            let fit = try await harness.get(harness.path("resize=512x512,fit|format=png", source: "/photo.png")).image().bitmap
            #expect(fit.size == PixelSize(width: 512, height: 512))
            #expect(fit.rgba8(x: 0, y: 0).alpha == 0)
            // A portrait source, and noenlarge on a source already inside the box.
            harness.serve("/tall.png", try ImageServerHarness.png(width: 200, height: 300))
            let tall = try await harness.get(harness.path("resize=100x100,inside", source: "/tall.png")).image()
            #expect(tall.pixelSize == PixelSize(width: 67, height: 100))
            let kept = try await harness.get(harness.path("resize=512x512,inside,noenlarge", source: "/tall.png")).image()
            #expect(kept.pixelSize == PixelSize(width: 200, height: 300))
            let metrics = try await harness.metrics()
            #expect(metrics.contains("webimage_result_cache_total{result=\"miss\"} 4"), "inside and fit are results of their own")
        }
    }
}
