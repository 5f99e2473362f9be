import Foundation
import LoopbackHTTPServer
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// Specs that would cost more than a request may are refused before the work (most before
/// the source is fetched), and a transform that cannot apply is an error, never the
/// untransformed source.
@Suite("ImageServer limits", .serialized, .timeLimit(.minutes(15)))
struct ImageServerLimitsTests {
    @Test func sizesASpecNamesAreCheckedBeforeTheFetch() async throws {
        try await ImageServerHarness.run { harness in
            harness.serve("/a.png", try ImageServerHarness.png())
            let huge = try await harness.get(harness.path("resize=16384x16384,stretch|format=png", source: "/a.png"))
            #expect(huge.status == 413)
            let tooMany = try await harness.get(harness.path(Array(repeating: "rotate=45", count: 40).joined(separator: "|"), source: "/a.png"))
            #expect(tooMany.status == 400)
            #expect(String(decoding: tooMany.body, as: UTF8.self).contains("more than 16 operations"))
            #expect(harness.sources.requestCount(for: "/a.png") == 0, "nothing was fetched for a spec over its limits")
            let sixteen = Array(repeating: "flip=h", count: 15).joined(separator: "|") + "|format=png"
            #expect(try await harness.get(harness.path(sixteen, source: "/a.png")).status == 200)
        }
    }

    @Test func canvasGrowthIsCheckedBeforeTheTransform() async throws {
        try await ImageServerHarness.run(configure: { $0.maxResultPixels = 10_000 }) { harness in
            harness.serve("/a.png", try ImageServerHarness.png())
            // 64×48 turned by 45° four times: 80×80, then 113×113 (over 10,000 pixels).
            let grown = try await harness.get(harness.path("rotate=45|rotate=45|rotate=45|rotate=45", source: "/a.png"))
            #expect(grown.status == 413)
            #expect(try await harness.get(harness.path("rotate=45", source: "/a.png")).status == 200)
            // A resize whose scaled picture is over the limit although its canvas is not.
            harness.serve("/tall.png", try ImageServerHarness.png(width: 2, height: 400))
            #expect(try await harness.get(harness.path("resize=100x100,fill", source: "/tall.png")).status == 413)
        }
    }

    @Test func aStepOverTheMemoryBudgetIsRefused() async throws {
        // 64×48 read and written as floats: (3,072 + 3,072) × 16 bytes = 98,304.
        try await ImageServerHarness.run(configure: { $0.requestMemoryBudget = 90_000 }) { harness in
            harness.serve("/a.png", try ImageServerHarness.png())
            let answer = try await harness.get(harness.path("blur=2", source: "/a.png"))
            #expect(answer.status == 413)
            #expect(String(decoding: answer.body, as: UTF8.self).contains("more memory than a request may"))
            #expect(try await harness.get(harness.path("resize=16", source: "/a.png")).status == 200)
        }
    }

    @Test func anEncodeOverTheMemoryBudgetIsRefused() async throws {
        // 64×48 pixels: as JPEG XL (4 + 40 bytes a pixel) 135,168 bytes, as PNG (4 + 8) 36,864.
        try await ImageServerHarness.run(configure: { $0.requestMemoryBudget = 100_000 }) { harness in
            harness.serve("/a.png", try ImageServerHarness.png())
            let answer = try await harness.get(harness.path("format=jxl", source: "/a.png"))
            #expect(answer.status == 413)
            #expect(String(decoding: answer.body, as: UTF8.self).contains("writing the result as jxl would take more memory"))
            #expect(try await harness.get(harness.path("format=png", source: "/a.png")).status == 200)
        }
    }

    @Test func animationsOverTheFrameLimitAreRefused() async throws {
        let frames = (0..<3).map { ImageFrame(bitmap: ManagerTestImage.bitmap(width: 8, height: 6, tint: UInt8($0 * 40)), duration: 0.1) }
        let gif = try ImageCodersManager.shared.encode(Image(frames: frames, loopCount: 0), as: .gif)
        try await ImageServerHarness.run(configure: { $0.maxAnimationFrames = 2 }) { harness in
            harness.serve("/anim.gif", gif, contentType: "image/gif")
            let answer = try await harness.get(harness.path("resize=4", source: "/anim.gif"))
            #expect(answer.status == 422)
        }
        try await ImageServerHarness.run(configure: { $0.maxAnimationPixels = 100 }) { harness in
            harness.serve("/anim.gif", gif, contentType: "image/gif")
            let answer = try await harness.get(harness.path("resize=4", source: "/anim.gif"))
            #expect(answer.status == 422)
        }
        try await ImageServerHarness.run { harness in
            harness.serve("/anim.gif", gif, contentType: "image/gif")
            let answer = try await harness.get(harness.path("resize=4", source: "/anim.gif"))
            #expect(answer.status == 200)
        }
    }

    /// A TIFF's pages are frames: a thousand 1×1 pages pass neither the frame limit nor, on
    /// a larger page, the frames × pixels limit.
    @Test func tiffPagesCountAsFrames() async throws {
        func tiff(pages: Int, width: Int, height: Int) throws -> Data {
            let frames = (0..<pages).map { ImageFrame(bitmap: ManagerTestImage.bitmap(width: width, height: height, tint: UInt8($0 % 200))) }
            return try ImageCodersManager.shared.encode(Image(frames: frames), as: .tiff)
        }
        let thousand = try tiff(pages: 1_000, width: 1, height: 1)
        #expect(try ImageCodersManager.shared.decode(thousand).frames.count == 1_000, "the file has its pages")
        let three = try tiff(pages: 3, width: 8, height: 6)
        try await ImageServerHarness.run { harness in
            harness.serve("/pages.tiff", thousand, contentType: "image/tiff")
            let answer = try await harness.get(harness.path("resize=10", source: "/pages.tiff"))
            #expect(answer.status == 422)
            harness.serve("/three.tiff", three, contentType: "image/tiff")
            #expect(try await harness.get(harness.path("resize=4", source: "/three.tiff")).status == 200)
        }
        try await ImageServerHarness.run(configure: { $0.maxAnimationPixels = 100 }) { harness in
            harness.serve("/three.tiff", three, contentType: "image/tiff")
            let answer = try await harness.get(harness.path("resize=4", source: "/three.tiff"))
            #expect(answer.status == 422)
        }
    }

    @Test func aCropThatLeavesNothingIsAnErrorNotTheSource() async throws {
        try await ImageServerHarness.run { harness in
            harness.serve("/a.png", try ImageServerHarness.png())
            let answer = try await harness.get(harness.path("crop=100,100,10x10", source: "/a.png"))
            #expect(answer.status == 422)
            #expect(String(decoding: answer.body, as: UTF8.self).contains("the crop leaves nothing"))
            #expect(answer.headers.first(name: "Content-Type") == "application/json")
        }
    }
}
