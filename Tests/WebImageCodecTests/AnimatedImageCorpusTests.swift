import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
import WebImageTestSupport

/// ``AnimatedImage`` against the full decode of the corpora's animated GIF, APNG and WebP
/// files: the same pixels, durations and loop count for every frame, asked for out of
/// order; and prefixes of those files, which hold only whole frames, pixel-equal to it.
@Suite(Corpus.required, Corpus.skippedUnderThreadSanitizer)
struct AnimatedImageCorpusTests {
    static let files = [
        "sdwebimage/TestImage.gif",
        "sdwebimage/1@2x.gif",
        "image-gif-tests/samples/moon_impact.gif",
        "image-gif-tests/samples/anim-gr.gif",
        "image-gif-tests/samples/beacon.gif",
        "sdl-image-samples/rgbrgb.gif",
        "sdwebimage/TestImageAnimated.apng",
        "image-png-misc/animated/basic_f20.png",
        "sdl-image-samples/rgbrgb.png",
        "sdwebimage/TestImageAnimated.webp",
        "image-webp-tests/images/animated/random_lossless.webp",
        "image-webp-tests/images/animated/random_lossy.webp",
    ]

    /// The indices `0..<count` in an order fixed by `seed` (a linear congruential shuffle),
    /// so that a failure repeats.
    static func shuffled(_ count: Int, seed: UInt64) -> [Int] {
        var state = seed
        var indices = Array(0..<count)
        for position in indices.indices.reversed() where position > 0 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            indices.swapAt(position, Int((state >> 33) % UInt64(position + 1)))
        }
        return indices
    }

    @Test(arguments: files)
    func framesInRandomOrderEqualTheFullDecode(_ path: String) throws {
        let data = try Corpus.data(path)
        let full = try ImageCodersManager.shared.decode(data)
        let animation = try ImageCodersManager.shared.animatedImage(from: data)
        #expect(animation.frameCount == full.frames.count)
        #expect(animation.loopCount == full.loopCount)
        #expect(animation.frameSize == full.pixelSize)
        #expect(animation.format == full.format)
        for index in Self.shuffled(full.frames.count, seed: UInt64(path.utf8.count)) {
            let frame = try animation.frame(at: index)
            #expect(frame.duration == full.frames[index].duration, "\(path) frame \(index) duration")
            #expect(frame.bitmap == full.frames[index].bitmap, "\(path) frame \(index) pixels")
        }
    }

    @Test(arguments: files)
    func prefixesHoldOnlyWholeFramesOfTheFullDecode(_ path: String) throws {
        let data = try Corpus.data(path)
        let full = try ImageCodersManager.shared.decode(data)
        let coder = try #require(ImageCodersManager.shared.coders.last { $0.canDecode(data) } as? any AnimatedImageCoder)
        var previous = 0
        for step in 1...40 {
            let length = data.count * step / 40
            let animation = try AnimatedImage(partialData: data.prefix(length), coder: coder)
            let count = animation?.frameCount ?? 0
            #expect(count >= previous && count <= full.frames.count, "\(path): \(count) frames in \(length) bytes")
            previous = count
            guard let animation, count > 0 else { continue }
            #expect(try animation.frame(at: count - 1).bitmap == full.frames[count - 1].bitmap, "\(path): frame \(count - 1) of \(length) bytes")
            if animation.isComplete { #expect(count == full.frames.count) }
        }
    }

    @Test(arguments: ["sdwebimage/TestImage.gif", "sdwebimage/TestImageAnimated.apng", "sdwebimage/TestImageAnimated.webp"])
    func posterIsReadyBeforeAnyOtherFrameDecodes(_ path: String) throws {
        let data = try Corpus.data(path)
        let coder = CountingFrameCoder(try #require(ImageCodersManager.shared.coders.last { $0.canDecode(data) } as? any AnimatedImageCoder))
        let animation = try AnimatedImage(data: data, coder: coder)
        #expect(coder.decodedFrames.withLockedValue { $0 } == [0])
        let full = try ImageCodersManager.shared.decode(data)
        #expect(animation.poster.bitmap == full.frames[0].bitmap)
        #expect(try animation.frame(at: 0).bitmap == full.frames[0].bitmap)
        #expect(coder.decodedFrames.withLockedValue { $0 } == [0])
        _ = try animation.frame(at: 2)
        #expect(coder.decodedFrames.withLockedValue { $0 } == [0, 1, 2])
    }

    @Test func memoryCostIsTheBytesAndThePosterNotEveryFrame() throws {
        let data = try Corpus.data("image-gif-tests/samples/moon_impact.gif")
        let animation = try ImageCodersManager.shared.animatedImage(from: data)
        #expect(animation.memoryCost == data.count + animation.frameSize.width * animation.frameSize.height * 4)
        #expect(animation.data == data)
    }

    @Test func decodingOnDemandGivesAnImageStandingForTheAnimation() throws {
        let data = try Corpus.data("sdwebimage/TestImage.gif")
        var options = ImageDecodeOptions()
        options.decodesFramesOnDemand = true
        let image = try ImageCodersManager.shared.decode(data, options: options)
        let animation = try #require(image.animation)
        #expect(image.frames.count == 1)
        #expect(image.isAnimated)
        #expect(animation.frameCount == 5)
        #expect(image.memoryCost == animation.memoryCost)
        let still = try ImageCodersManager.shared.decode(try Corpus.data("sdwebimage/TestImage.png"), options: options)
        #expect(still.animation == nil)
    }
}
