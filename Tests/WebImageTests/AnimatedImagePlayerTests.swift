import Foundation
import NIOConcurrencyHelpers
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// ``AnimatedImagePlayer`` on a ``ManualAnimationClock``: the frame order of every mode,
/// durations and rate, loops and the stop on the last frame, seek, pause and resume,
/// frames skipped while decoding lags, and the bounds of the buffer.
@Suite(.timeLimit(.minutes(15)))
struct AnimatedImagePlayerTests {
    /// An animation of `durations.count` frames of 2×2 pixels, each its own colour.
    static func animation(_ durations: [Double], loopCount: Int = 0) -> AnimatedImage {
        let frames = durations.indices.map { index in
            ImageFrame(bitmap: Bitmap.solid(2, 2, RGBA8(red: UInt8(index * 40), green: 0, blue: 0)), duration: durations[index])
        }
        return AnimatedImage(Image(frames: frames, loopCount: loopCount, format: .gif))
    }

    /// A GIF animation whose frames after the poster decode only when `coder` allows.
    static func gatedAnimation(frameCount: Int, coder: CountingFrameCoder) throws -> AnimatedImage {
        let frames = (0..<frameCount).map { index in
            ImageFrame(bitmap: Bitmap.solid(2, 2, RGBA8(red: UInt8(index * 40), green: 0, blue: 0)), duration: 0.1)
        }
        let data = try GIFCoder().encode(Image(frames: frames, format: .gif), as: .gif, options: ImageEncodeOptions())
        return try AnimatedImage(data: data, coder: coder)
    }

    /// Plays until the player finishes (or `steps` frame times pass), letting every frame
    /// ahead decode before each frame's time ends, so that none is skipped.
    static func playToTheEnd(_ player: AnimatedImagePlayer, clock: ManualAnimationClock, steps: Int = 50) async {
        player.play()
        #expect(await eventually { player.currentFrameIndex != nil })
        for _ in 0..<steps {
            guard let deadline = clock.nextDeadline else { return }
            let expected = min(player.animation.frameCount, player.maxBufferSize / player.animation.frameByteCount)
            #expect(await eventually { player.bufferedFrameIndices.count == expected })
            clock.advance(by: deadline - clock.now)
        }
    }

    @Test(arguments: [
        (AnimationPlaybackMode.normal, [0, 1, 2, 0, 1, 2]),
        (.reverse, [2, 1, 0, 2, 1, 0]),
        (.bounce, [0, 1, 2, 1, 0, 1, 2, 1, 0]),
        (.reversedBounce, [2, 1, 0, 1, 2, 1, 0, 1, 2]),
    ])
    func everyModeShowsItsOrderThenStops(_ mode: AnimationPlaybackMode, _ order: [Int]) async {
        let clock = ManualAnimationClock()
        let animation = Self.animation([0.1, 0.1, 0.1], loopCount: 2)
        let player = AnimatedImagePlayer(animation, clock: clock, mode: mode, maxBufferSize: 3 * 16)
        let recorder = PlayerRecorder(player, clock: clock)
        await Self.playToTheEnd(player, clock: clock)
        #expect(recorder.frames == order)
        #expect(recorder.loops == [1, 2])
        #expect(recorder.finishes == 1)
        #expect(!player.isPlaying)
        #expect(player.currentFrameIndex == order.last)
        #expect(player.skippedFrameCount == 0)
        #expect(player.bufferedByteCount == 0, "a finished player keeps no buffer")
        #expect(clock.nextDeadline == nil)
    }

    @Test func durationsAndRateSetTheTimes() async {
        let clock = ManualAnimationClock()
        let animation = Self.animation([0.1, 0.2, 0.4], loopCount: 1)
        let player = AnimatedImagePlayer(animation, clock: clock, rate: 2, maxBufferSize: 3 * 16)
        let recorder = PlayerRecorder(player, clock: clock)
        await Self.playToTheEnd(player, clock: clock)
        #expect(recorder.frames == [0, 1, 2])
        let expected = [0, 0.05, 0.15]
        #expect(zip(recorder.times, expected).allSatisfy { abs($0 - $1) < 1e-9 })
        #expect(abs(clock.now - 0.35) < 1e-9, "the last frame shows for its whole time before the end")
    }

    @Test func loopCountZeroPlaysForever() async {
        let clock = ManualAnimationClock()
        let player = AnimatedImagePlayer(Self.animation([0.1, 0.1]), clock: clock, maxBufferSize: 2 * 16)
        let recorder = PlayerRecorder(player, clock: clock)
        await Self.playToTheEnd(player, clock: clock, steps: 20)
        #expect(recorder.frames.count == 21)
        #expect(recorder.loops == Array(1...10))
        #expect(recorder.finishes == 0)
        #expect(player.isPlaying)
    }

    @Test func seekMovesToAFrameAndALoop() async {
        let clock = ManualAnimationClock()
        let player = AnimatedImagePlayer(Self.animation([0.1, 0.1, 0.1, 0.1], loopCount: 2), clock: clock, maxBufferSize: 4 * 16)
        let recorder = PlayerRecorder(player, clock: clock)
        player.play()
        #expect(await eventually { player.bufferedFrameIndices.count == 4 })
        player.seek(toFrame: 2, loop: 1)
        #expect(player.currentFrameIndex == 2, "a buffered frame shows at once")
        #expect(player.finishedLoopCount == 1)
        for _ in 0..<5 {
            guard let deadline = clock.nextDeadline else { break }
            #expect(await eventually { player.bufferedFrameIndices.count == 4 })
            clock.advance(by: deadline - clock.now)
        }
        #expect(recorder.frames == [0, 2, 3])
        #expect(recorder.loops == [2])
        #expect(recorder.finishes == 1)
    }

    @Test func pauseKeepsTheRestOfTheFramesTime() async {
        let clock = ManualAnimationClock()
        let player = AnimatedImagePlayer(Self.animation([0.1, 0.1]), clock: clock, maxBufferSize: 2 * 16)
        let recorder = PlayerRecorder(player, clock: clock)
        player.play()
        #expect(await eventually { player.currentFrameIndex == 0 && player.bufferedFrameIndices.count == 2 })
        clock.advance(by: 0.04)
        player.pause()
        #expect(!player.isPlaying)
        clock.advance(by: 5)
        #expect(recorder.frames == [0])
        player.play()
        clock.advance(by: 0.059)
        #expect(recorder.frames == [0])
        clock.advance(by: 0.001)
        #expect(recorder.frames == [0, 1])
        #expect(abs(recorder.times[1] - 5.1) < 1e-9)
    }

    @Test func aFrameNotDecodedInTimeIsSkippedWithoutWaiting() async throws {
        let coder = CountingFrameCoder(GIFCoder(), gated: true)
        let clock = ManualAnimationClock()
        let animation = try Self.gatedAnimation(frameCount: 4, coder: coder)
        let player = AnimatedImagePlayer(animation, clock: clock, maxBufferSize: 4 * 16)
        let recorder = PlayerRecorder(player, clock: clock)
        player.play()
        #expect(await eventually { player.currentFrameIndex == 0 })
        // Frame 1 is decoding (held); its time comes and goes.
        clock.advance(by: 0.1)
        #expect(player.skippedFrameCount == 1)
        #expect(player.currentFrameIndex == 0)
        #expect(recorder.frames == [0])
        coder.allow(100)
        #expect(await eventually { player.bufferedFrameIndices == [0, 1, 2, 3] })
        clock.advance(by: 0.1)
        #expect(recorder.frames == [0, 2])
        player.stop()
    }

    @Test func theBufferStaysWithinItsLimitAndStopEmptiesIt() async throws {
        let coder = CountingFrameCoder(GIFCoder(), gated: true)
        let clock = ManualAnimationClock()
        let animation = try Self.gatedAnimation(frameCount: 6, coder: coder)
        let limit = 2 * 16 + 8
        let player = AnimatedImagePlayer(animation, clock: clock, maxBufferSize: limit)
        let overLimit = NIOLockedValueBox(false)
        player.onFrameChange = { [weak player] _, _ in
            if let player, player.bufferedByteCount > limit { overLimit.withLockedValue { $0 = true } }
        }
        coder.allow(1_000)
        player.play()
        for _ in 0..<12 {
            #expect(await eventually { player.bufferedFrameIndices.count == 2 })
            #expect(player.bufferedByteCount <= limit)
            clock.advance(by: 0.1)
            #expect(player.bufferedByteCount <= limit)
        }
        #expect(player.skippedFrameCount == 0)
        #expect(!overLimit.withLockedValue { $0 })

        // A decode still running when the player stops never lands in the buffer.
        player.stop()
        #expect(player.bufferedByteCount == 0 && player.bufferedFrameIndices.isEmpty)
        #expect(!player.isPlaying)
    }

    @Test func stopDropsADecodeInFlight() async throws {
        let coder = CountingFrameCoder(GIFCoder(), gated: true)
        let clock = ManualAnimationClock()
        let animation = try Self.gatedAnimation(frameCount: 3, coder: coder)
        let player = AnimatedImagePlayer(animation, clock: clock, maxBufferSize: 3 * 16)
        player.play()
        #expect(await eventually { player.currentFrameIndex == 0 })
        player.stop()
        coder.allow(1)
        #expect(await eventually { coder.decodedFrames.withLockedValue { $0.count } == 2 })
        #expect(await eventually { player.settledDecodeCount == 2 }, "the decode in flight has returned to the player")
        #expect(player.bufferedFrameIndices.isEmpty)
        #expect(player.bufferedByteCount == 0)
    }

    @Test func theFrameTransformerShapesBufferedFrames() async {
        let clock = ManualAnimationClock()
        let resize = ResizingImageTransformer(size: PixelSize(width: 1, height: 1))
        let player = AnimatedImagePlayer(Self.animation([0.1, 0.1]), clock: clock, maxBufferSize: 2 * 4, frameTransformer: resize)
        player.play()
        #expect(await eventually { player.currentFrame != nil })
        #expect(player.currentFrame?.bitmap.size == PixelSize(width: 1, height: 1))
        #expect(await eventually { player.bufferedFrameIndices == [0, 1] })
        #expect(player.bufferedByteCount == 8)
        player.stop()
    }

    @Test func theAutomaticBufferHoldsWholeFramesWithinTheBudget() {
        let player = AnimatedImagePlayer(Self.animation([0.1, 0.1, 0.1]), clock: ManualAnimationClock())
        #expect(player.maxBufferSize == 0)
        #expect(player.bufferLimit(player.state.withLockedValue { $0 }) == 3 * 16)
    }
}
