import Foundation
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// `dpr=N` multiplies every size of the spec, within 1 to 5 and the result-pixel limit.
@Suite("ImageServer dpr", .serialized, .timeLimit(.minutes(15)))
struct ImageServerDevicePixelRatioTests {
    @Test func multipliesResizeAndCropSizes() async throws {
        try await ImageServerHarness.run { harness in
            harness.serve("/a.png", try ImageServerHarness.png(width: 400, height: 300))
            let plain = try await harness.get(harness.path("resize=40x30,fill|format=png", source: "/a.png"))
            #expect(try plain.image().pixelSize == PixelSize(width: 40, height: 30))
            let double = try await harness.get(harness.path("dpr=2|resize=40x30,fill|format=png", source: "/a.png"))
            #expect(double.status == 200)
            #expect(try double.image().pixelSize == PixelSize(width: 80, height: 60))
            let crop = try await harness.get(harness.path("crop=10x20|dpr=3", source: "/a.png"))
            #expect(try crop.image().pixelSize == PixelSize(width: 30, height: 60))
            let fractional = try await harness.get(harness.path("resize=40|dpr=1.5", source: "/a.png"))
            #expect(try fractional.image().pixelWidth == 60)
        }
    }

    @Test func isCappedByTheResultPixelLimit() async throws {
        try await ImageServerHarness.run(configure: { $0.maxResultPixels = 10_000 }) { harness in
            harness.serve("/a.png", try ImageServerHarness.png(width: 400, height: 300))
            // 40×30 × 5 would be 30,000 pixels; the ratio is lowered to fit 10,000.
            let answer = try await harness.get(harness.path("dpr=5|resize=40x30,fill|format=png", source: "/a.png"))
            #expect(answer.status == 200)
            let size = try answer.image().pixelSize
            #expect(size.width * size.height <= 10_000)
            #expect(size.width > 100 && size.width <= 116 && size.height > 75)
        }
    }

    @Test func refusesRatiosOutOfBounds() async throws {
        try await ImageServerHarness.run { harness in
            harness.serve("/a.png", try ImageServerHarness.png())
            for bad in ["dpr=0|resize=10", "dpr=6|resize=10", "dpr=x|resize=10", "dpr=2|dpr=2|resize=10", "dpr=nan|resize=10"] {
                let answer = try await harness.get(harness.path(bad, source: "/a.png"))
                #expect(answer.status == 400, "\(bad)")
                #expect(String(decoding: answer.body, as: UTF8.self).contains("dpr"))
            }
            #expect(harness.sources.requests.isEmpty)
        }
    }
}
