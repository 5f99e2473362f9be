import Foundation
import Testing

@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// SDWebImage's player: a reverse mode set before playing starts from the last frame, and a
/// seek shows its frame at once whether playing or not.
@Suite(.timeLimit(.minutes(15)))
struct AnimatedImagePlayerModeAndSeekTests {
    @Test(arguments: [
        (AnimationPlaybackMode.reverse, [2, 1, 0]),
        (.reversedBounce, [2, 1, 0, 1]),
        (.bounce, [0, 1, 2, 1]),
    ])
    func aModeSetBeforePlayStartsFromItsFirstFrame(_ mode: AnimationPlaybackMode, _ order: [Int]) async {
        let clock = ManualAnimationClock()
        let player = AnimatedImagePlayer(AnimatedImagePlayerTests.animation([0.1, 0.1, 0.1], loopCount: 1), clock: clock, maxBufferSize: 3 * 16)
        let recorder = PlayerRecorder(player, clock: clock)
        player.playbackMode = mode
        await AnimatedImagePlayerTests.playToTheEnd(player, clock: clock)
        #expect(Array(recorder.frames.prefix(order.count)) == order)
        // The same as the mode given to the initializer.
        let clock2 = ManualAnimationClock()
        let made = AnimatedImagePlayer(AnimatedImagePlayerTests.animation([0.1, 0.1, 0.1], loopCount: 1), clock: clock2, mode: mode, maxBufferSize: 3 * 16)
        let recorder2 = PlayerRecorder(made, clock: clock2)
        await AnimatedImagePlayerTests.playToTheEnd(made, clock: clock2)
        #expect(recorder.frames == recorder2.frames)
    }

    @Test func aModeChangedWhilePlayingKeepsTheFrameShowing() async {
        let clock = ManualAnimationClock()
        let player = AnimatedImagePlayer(AnimatedImagePlayerTests.animation([0.1, 0.1, 0.1]), clock: clock, maxBufferSize: 3 * 16)
        player.play()
        #expect(await eventually { player.currentFrameIndex == 0 })
        player.playbackMode = .reverse
        #expect(player.currentFrameIndex == 0)
    }

    @Test func aSeekWhilePausedShowsTheFrameAndPlayGivesItItsWholeTime() async {
        let clock = ManualAnimationClock()
        let player = AnimatedImagePlayer(AnimatedImagePlayerTests.animation([0.25, 0.5, 0.5, 0.25]), clock: clock, maxBufferSize: 4 * 16)
        let recorder = PlayerRecorder(player, clock: clock)
        player.play()
        #expect(await eventually { player.currentFrameIndex == 0 })
        player.pause()
        player.seek(toFrame: 2)
        #expect(await eventually { recorder.frames == [0, 2] }, "shown without play()")
        #expect(player.currentFrameIndex == 2)
        #expect(!player.isPlaying)
        #expect(clock.nextDeadline == nil, "a paused player schedules nothing")

        clock.advance(by: 1)
        player.play()
        #expect(await eventually { player.bufferedFrameIndices.contains(3) })
        clock.advance(by: 0.25)
        #expect(recorder.frames == [0, 2])
        clock.advance(by: 0.25)
        #expect(recorder.frames == [0, 2, 3])
    }

    @Test func aSeekOnAPlayerNeverStartedShowsTheFrame() async {
        let clock = ManualAnimationClock()
        let player = AnimatedImagePlayer(AnimatedImagePlayerTests.animation([0.1, 0.1, 0.1]), clock: clock, maxBufferSize: 3 * 16)
        let recorder = PlayerRecorder(player, clock: clock)
        player.seek(toFrame: 1)
        // The player sets its frame under its lock and calls back after it: wait for the call.
        #expect(await eventually { recorder.frames == [1] })
        #expect(player.currentFrameIndex == 1)
        #expect(!player.isPlaying)
    }
}
