import Foundation
import Testing

@testable import WebImage

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

}
