import Foundation
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// Animated GIF, APNG and WebP keep their frames, timing and loop count through a
/// pipeline and a round trip through their own coder.
@Suite(Corpus.required) struct AnimatedTransformTests {
    @Test(arguments: ["sdwebimage/TestImage.gif", "sdwebimage/TestImageAnimated.apng", "sdwebimage/TestImageAnimated.webp"])
    func animationsKeepFramesDurationsAndLoopCount(path: String) throws {
        let original = try ImageCodersManager.shared.decode(Corpus.data(path))
        #expect(original.isAnimated)
        let spec = try TransformSpec("resize=40x30,fill|round=6|blur=1|rotate=90|tint=ff000040")
        let transformed = try #require(spec.pipeline.transform(original))
        #expect(transformed.frames.count == original.frames.count)
        #expect(transformed.frames.map(\.duration) == original.frames.map(\.duration))
        #expect(transformed.loopCount == original.loopCount)
        #expect(transformed.pixelSize == PixelSize(width: 30, height: 40))
        #expect(transformed.format == original.format)

        let written = try ImageCodersManager.shared.encode(transformed, as: original.format)
        let info = try ImageCodersManager.shared.animationInfo(of: written)
        let reread = try ImageCodersManager.shared.decode(written)
        #expect(reread.frames.count == original.frames.count)
        #expect(info.loopCount == original.loopCount)
        for (read, source) in zip(reread.frames, original.frames) {
            #expect(abs(read.duration - source.duration) < 0.011)
        }
    }
}
