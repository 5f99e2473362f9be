import Foundation
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// ``AnimatedImagePlayer/extend(with:)`` on a ``ManualAnimationClock``: a player handed a
/// longer version of its animation goes on from the frame showing, keeps its buffer, holds
/// the last frame received while the animation is incomplete, and loops once it is whole.
@Suite(.timeLimit(.minutes(15)))
struct AnimatedImagePlayerProgressiveTests {
    /// The fixture GIF's whole animation and the incomplete one of its first `frames` frames.
    static func animations(prefixFrames frames: Int) throws -> (partial: AnimatedImage, full: AnimatedImage) {
        let fixture = try ProgressiveAnimationFixture.make(.gif)
        let partial = try #require(try AnimatedImage(partialData: fixture.data.prefix(fixture.frameEnds[frames - 1]), coder: GIFCoder()))
        return (partial, try AnimatedImage(data: fixture.data, coder: GIFCoder()))
    }

    @Test func holdsTheLastFrameReceivedThenGoesOnWithTheLongerAnimation() async throws {
        let (partial, full) = try Self.animations(prefixFrames: 2)
        let clock = ManualAnimationClock()
        let player = AnimatedImagePlayer(partial, clock: clock, maxBufferSize: 4 * full.frameByteCount)
        let recorder = PlayerRecorder(player, clock: clock)
        player.play()
        #expect(await eventually { player.bufferedFrameIndices == [1] })
        clock.advance(by: 0.1)
        #expect(player.currentFrameIndex == 1)
        clock.advance(by: 0.1)
        #expect(player.isWaitingForFrames && player.isPlaying)
        #expect(recorder.loops.isEmpty, "an incomplete animation does not loop")
        clock.advance(by: 1)
        #expect(recorder.frames == [0, 1], "the last frame received holds")
        #expect(clock.nextDeadline == nil)

        player.extend(with: full)
        // The frame shows from the decoding thread, and its callback follows outside the
        // player's lock: wait for the callback, not only the index.
        #expect(await eventually { recorder.frames.count >= 3 })
        #expect(player.currentFrameIndex == 2)
        #expect(!player.isWaitingForFrames)
        #expect(recorder.frames == [0, 1, 2], "play goes on, it does not start again")
        #expect(recorder.times.last == clock.now, "the next frame's time starts when it shows")
        #expect(await eventually { player.bufferedFrameIndices.contains(3) })
        clock.advance(by: 0.1)
        #expect(await eventually { player.bufferedFrameIndices.contains(0) })
        clock.advance(by: 0.1)
        #expect(recorder.frames == [0, 1, 2, 3, 0], "once complete it loops")
        #expect(recorder.loops == [1])
        #expect(player.skippedFrameCount == 0)
    }

    @Test func aLongerAnimationKeepsTheFrameShowingItsTimeAndTheBuffer() async throws {
        let (partial, full) = try Self.animations(prefixFrames: 3)
        let clock = ManualAnimationClock()
        let player = AnimatedImagePlayer(partial, clock: clock, maxBufferSize: 4 * full.frameByteCount)
        let recorder = PlayerRecorder(player, clock: clock)
        player.play()
        #expect(await eventually { player.bufferedFrameIndices == [1, 2] })
        clock.advance(by: 0.05)
        player.extend(with: full)
        #expect(player.animation === full)
        #expect(player.currentFrameIndex == 0)
        #expect(Set(player.bufferedFrameIndices).isSuperset(of: [1, 2]), "buffered frames stay")
        clock.advance(by: 0.05)
        #expect(recorder.frames == [0, 1])
        #expect(recorder.times == [0, 0.1], "frame 0 kept its time")
        #expect(await eventually { player.bufferedFrameIndices.contains(3) })
        clock.advance(by: 0.2)
        #expect(recorder.frames == [0, 1, 2, 3])
        #expect(player.skippedFrameCount == 0)
    }

    @Test func pausedWhileHoldingResumesIntoTheNewFrames() async throws {
        let (partial, full) = try Self.animations(prefixFrames: 1)
        let clock = ManualAnimationClock()
        let player = AnimatedImagePlayer(partial, clock: clock, maxBufferSize: 4 * full.frameByteCount)
        let recorder = PlayerRecorder(player, clock: clock)
        player.play()
        #expect(await eventually { player.currentFrameIndex == 0 })
        clock.advance(by: 0.1)
        #expect(player.isWaitingForFrames)
        player.pause()
        player.extend(with: full)
        #expect(await eventually { player.bufferedFrameIndices.contains(1) })
        player.play()
        clock.advance(by: 0)
        #expect(recorder.frames == [0, 1])
        #expect(recorder.loops.isEmpty)
    }
}
