import Foundation
import Testing

@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// SDWebImage's `preloadAllFrames` / `unloadAllFrames` / `isAllFramesLoaded` on an animated
/// image, and `autoPlayAnimatedImage` on the animated view.
@Suite(.timeLimit(.minutes(15)))
struct AnimatedImagePreloadTests {
    @Test func preloadedFramesAreDecodedOnceAndServedWithoutDecoding() throws {
        let coder = CountingFrameCoder(GIFCoder())
        let frames = (0..<4).map { index in
            ImageFrame(bitmap: Bitmap.solid(2, 2, RGBA8(red: UInt8(index * 40), green: 0, blue: 0)), duration: 0.1)
        }
        let data = try GIFCoder().encode(Image(frames: frames, format: .gif), as: .gif, options: ImageEncodeOptions())
        let animation = try AnimatedImage(data: data, coder: coder)
        let reference = try AnimatedImage(data: data, coder: GIFCoder())
        let expected = try (0..<4).map { try reference.frame(at: $0).bitmap }
        #expect(!animation.isAllFramesLoaded)
        let lazyCost = animation.memoryCost

        try animation.preloadAllFrames()
        #expect(animation.isAllFramesLoaded)
        #expect(animation.memoryCost == lazyCost + 3 * animation.frameByteCount)
        let decodedByPreload = coder.decodedFrames.withLockedValue { $0.count }
        for index in [3, 1, 2, 0] {
            #expect(try animation.frame(at: index).bitmap == expected[index])
        }
        #expect(coder.decodedFrames.withLockedValue { $0.count } == decodedByPreload, "no decode after the preload")

        animation.unloadAllFrames()
        #expect(!animation.isAllFramesLoaded)
        #expect(animation.memoryCost == lazyCost)
        #expect(try animation.frame(at: 2).bitmap == expected[2])
        #expect(coder.decodedFrames.withLockedValue { $0.count } > decodedByPreload, "decoded on demand again")
    }

    @Test func withoutAutoPlayTheTargetShowsThePosterAndWaits() async throws {
        let clock = ManualAnimationClock()
        let manager = ImageManager(cache: ImageCache(directory: TemporaryDirectory(prefix: "autoplay").url), loader: FileImageLoader())
        let target = RecordingAnimatedTarget(manager: manager, clock: clock)
        #expect(target.animationPlayback.autoPlayAnimatedImage, "on by default, as in SDWebImage")
        target.animationPlayback.autoPlayAnimatedImage = false
        let image = Image(frames: (0..<3).map { ImageFrame(bitmap: Bitmap.solid(2, 2, RGBA8(red: UInt8($0 * 50), green: 0, blue: 0)), duration: 0.1) })
        target.play(image)
        let player = try #require(target.animationPlayback.player)
        #expect(!player.isPlaying)
        #expect(clock.nextDeadline == nil)
        target.animationPlayback.isOnScreen = false
        target.animationPlayback.isOnScreen = true
        #expect(!player.isPlaying, "coming back on screen does not start it either")

        player.play()
        #expect(player.isPlaying)
        #expect(await eventually { target.displayed.count >= 2 }, "the poster, then the first frame played")
    }
}
