import Foundation
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// Progressive animation: an ``AnimatedImage`` over the bytes of an animated GIF, APNG or
/// WebP received so far holds exactly the frames that have wholly arrived, decodes them
/// as the whole file does, and says whether it is complete.
@Suite(.timeLimit(.minutes(15)))
struct AnimatedImageProgressiveTests {
    @Test("progressive animation exposing more frames as bytes arrive", arguments: ProgressiveAnimationFixture.Format.allCases)
    func moreFramesAsBytesArrive(_ format: ProgressiveAnimationFixture.Format) throws {
        let fixture = try ProgressiveAnimationFixture.make(format)
        let full = try AnimatedImage(data: fixture.data, coder: fixture.coder)
        try #require(fixture.frameEnds.count == full.frameCount)
        var previous = 0
        for length in 1...fixture.data.count {
            let animation = try AnimatedImage(partialData: fixture.data.prefix(length), coder: fixture.coder)
            let count = animation?.frameCount ?? 0
            #expect(count == fixture.completeFrames(in: length), "\(length) of \(fixture.data.count) bytes")
            #expect(count >= previous)
            previous = count
            if let animation {
                #expect(animation.isComplete == (length == fixture.data.count), "\(length) bytes")
                #expect(animation.canvasSize == full.canvasSize)
                #expect(Array(animation.frameDurations) == Array(full.frameDurations.prefix(count)))
            }
        }
        #expect(previous == full.frameCount)
    }

    @Test("frames of a prefix decode to the full file's pixels, in any order", arguments: ProgressiveAnimationFixture.Format.allCases)
    func prefixFramesMatchTheWholeFile(_ format: ProgressiveAnimationFixture.Format) throws {
        let fixture = try ProgressiveAnimationFixture.make(format)
        let full = try AnimatedImage(data: fixture.data, coder: fixture.coder)
        var generator = SeededGenerator(seed: 15)
        for end in fixture.frameEnds {
            let animation = try #require(try AnimatedImage(partialData: fixture.data.prefix(end), coder: fixture.coder))
            for index in (0..<animation.frameCount).shuffled(using: &generator) {
                #expect(try animation.frame(at: index).bitmap == full.frame(at: index).bitmap, "frame \(index) of \(end) bytes")
            }
        }
    }

    @Test("a prefix cut inside a frame does not expose that frame", arguments: ProgressiveAnimationFixture.Format.allCases)
    func aFrameCutShortIsNotExposed(_ format: ProgressiveAnimationFixture.Format) throws {
        let fixture = try ProgressiveAnimationFixture.make(format)
        let full = try AnimatedImage(data: fixture.data, coder: fixture.coder)
        for (index, end) in fixture.frameEnds.enumerated() {
            let start = index == 0 ? 0 : fixture.frameEnds[index - 1]
            for length in [end - 1, (start + end) / 2] where length > 0 {
                let animation = try AnimatedImage(partialData: fixture.data.prefix(length), coder: fixture.coder)
                #expect((animation?.frameCount ?? 0) == index, "\(length) bytes, inside frame \(index)")
                guard let animation else { continue }
                #expect(!animation.isComplete)
                let last = animation.frameCount - 1
                #expect(try animation.frame(at: last).bitmap == full.frame(at: last).bitmap)
            }
        }
    }

    @Test func stillImagesHaveNoPartialAnimation() throws {
        let still = Image(bitmap: ProgressiveAnimationFixture.frames(count: 1)[0].bitmap)
        let png = try PNGCoder().encode(still, as: .png, options: ImageEncodeOptions())
        let webp = try WebPCoder().encode(still, as: .webp, options: ImageEncodeOptions())
        #expect(try AnimatedImage(partialData: png, coder: PNGCoder()) == nil)
        #expect(try AnimatedImage(partialData: webp, coder: WebPCoder()) == nil)
    }

    @Test func theCodersManagerGivesGrowingAnimationsForFramesOnDemand() throws {
        let fixture = try ProgressiveAnimationFixture.make(.gif)
        let coders = ImageCodersManager(coders: [PNGCoder(), GIFCoder(), WebPCoder()])
        var onDemand = ImageDecodeOptions()
        onDemand.decodesFramesOnDemand = true
        var counts: [Int] = []
        for end in fixture.frameEnds.dropLast() {
            let image = try coders.decodeIncrementally(fixture.data.prefix(end + 1), isComplete: false, options: onDemand)
            let animation = try #require(image?.animation)
            #expect(!animation.isComplete)
            counts.append(animation.frameCount)
        }
        #expect(counts == Array(1..<fixture.frameEnds.count))
        #expect(try coders.decodeIncrementally(fixture.data, isComplete: false, options: onDemand) == nil)
        #expect(try coders.decodeIncrementally(fixture.data, isComplete: true, options: onDemand)?.animation?.isComplete == true)
        #expect(try coders.decodeIncrementally(fixture.data.prefix(fixture.frameEnds[1]), isComplete: false) == nil)
    }
}
