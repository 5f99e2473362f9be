import Foundation
import LoopbackHTTPServer
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// ``AnimatedImageTarget``: it plays what it loads, stops off screen and on another image,
/// and loads under its operation key like other targets.
@Suite(.timeLimit(.minutes(15)))
struct AnimatedImageTargetTests {
    @Test func playsWhatItLoadsAndStopsOffScreenOrOnAnotherImage() async throws {
        try await ManagerTestHarness.run { harness in
            let gif = try TestImages.animatedGIF()
            harness.serve("/a.gif", gif.data, headers: [("Content-Type", "image/gif")])
            let clock = ManualAnimationClock()
            let target = RecordingAnimatedTarget(manager: harness.manager, clock: clock)
            target.setAnimatedImage(with: harness.url("/a.gif"))
            #expect(await eventually { target.animationPlayback.player?.currentFrameIndex == 0 })
            let player = try #require(target.animationPlayback.player)
            #expect(target.displayed.first! == nil, "no placeholder: the target is cleared first")
            #expect(target.displayed.last??.bitmap == gif.frames[0].bitmap)
            #expect(await eventually { player.bufferedFrameIndices.contains(1) })
            clock.advance(by: 0.1)
            #expect(target.displayed.last??.bitmap == gif.frames[1].bitmap)

            target.animationPlayback.isOnScreen = false
            #expect(!player.isPlaying && player.bufferedByteCount == 0)
            let shownOffScreen = target.displayed.count
            clock.advance(by: 1)
            #expect(target.displayed.count == shownOffScreen)

            target.animationPlayback.isOnScreen = true
            #expect(player.isPlaying)

            let still = Image(bitmap: Bitmap.solid(8, 8, TestImages.colors[3]))
            target.play(still)
            #expect(target.animationPlayback.player == nil)
            #expect(!player.isPlaying)
            clock.advance(by: 1)
            #expect(target.displayed.last??.bitmap == still.bitmap)
        }
    }

    @Test func aNewLoadCancelsTheOneUnderTheSameKey() async throws {
        try await ManagerTestHarness.run { harness in
            let gif = try TestImages.animatedGIF()
            let gate = LoopbackGate()
            harness.serve("/slow.gif", gif.data, headers: [("Content-Type", "image/gif")], after: gate)
            harness.serve("/b.gif", gif.data, headers: [("Content-Type", "image/gif")])
            let target = RecordingAnimatedTarget(manager: harness.manager, clock: ManualAnimationClock())
            target.setAnimatedImage(with: harness.url("/slow.gif"))
            target.setAnimatedImage(with: harness.url("/b.gif"))
            #expect(await eventually { target.animationPlayback.player?.currentFrameIndex == 0 })
            let player = target.animationPlayback.player
            #expect(target.imageURL == harness.url("/b.gif"))
            let shown = target.displayed.count
            gate.open()
            #expect(
                await eventually { harness.downloader.currentDownloadCount == 0 && !harness.manager.isRunning },
                "the slow download and the cancelled load have ended")
            #expect(target.displayed.count == shown, "the cancelled load shows nothing")
            #expect(target.animationPlayback.player === player)
        }
    }
}
