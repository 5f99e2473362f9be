import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// ``AnimationFrameBudget`` shared by many ``AnimatedImagePlayer``s on one
/// ``ManualAnimationClock``: the total held stays within the limit while every player plays
/// on, the spare bytes go to visible and recently started players first, and a player that
/// lost its share takes it back when bytes free up.
@Suite(.timeLimit(.minutes(15)))
struct AnimationFrameBudgetTests {
    /// Bytes of one 4×4 frame.
    static let frameBytes = 4 * 4 * 4

    /// An animation of `frameCount` 4×4 frames, 0.1 s each, looping forever.
    static func animation(frameCount: Int = 10) -> AnimatedImage {
        let frames = (0..<frameCount).map { index in
            ImageFrame(bitmap: Bitmap.solid(4, 4, RGBA8(red: UInt8(index * 20), green: 0, blue: 0)), duration: 0.1)
        }
        return AnimatedImage(Image(frames: frames, loopCount: 0, format: .gif))
    }

    /// A player wanting up to 8 frames ahead, in `budget`.
    static func player(in budget: AnimationFrameBudget, clock: ManualAnimationClock) -> AnimatedImagePlayer {
        AnimatedImagePlayer(animation(), clock: clock, maxBufferSize: 8 * frameBytes, frameBudget: budget)
    }

    /// Whether `player`'s next frame has decoded, so that its time can pass without a skip.
    static func hasNextFrame(_ player: AnimatedImagePlayer) -> Bool {
        guard let current = player.currentFrameIndex else { return false }
        return player.bufferedFrameIndices.contains((current + 1) % player.animation.frameCount)
    }

    @Test func manyPlayersHoldNoMoreThanTheBudgetAndAllKeepPlaying() async {
        let clock = ManualAnimationClock()
        let count = 16
        // Every player's minimum (its frame showing and its next) and six frames to spare,
        // where every player would buffer eight frames ahead on its own.
        let limit = count * 2 * Self.frameBytes + 6 * Self.frameBytes
        let budget = AnimationFrameBudget(limit: limit)
        let players = (0..<count).map { _ in Self.player(in: budget, clock: clock) }
        let recorders = players.map { PlayerRecorder($0, clock: clock) }
        for player in players { player.play() }
        let steps = 30
        for _ in 0..<steps {
            #expect(await eventually { players.allSatisfy(Self.hasNextFrame) })
            #expect(budget.heldByteCount <= limit)
            clock.advance(by: 0.1)
        }
        #expect(budget.peakHeldByteCount <= limit, "the players never held more than the limit together")
        #expect(budget.peakHeldByteCount > count * 2 * Self.frameBytes, "the spare bytes were used")
        for (player, recorder) in zip(players, recorders) {
            #expect(recorder.frames.count == steps + 1, "every player showed a new frame at every step")
            #expect(recorder.frames == (0...steps).map { $0 % 10 })
            #expect(player.skippedFrameCount == 0)
        }
        for player in players { player.stop() }
        #expect(budget.heldByteCount == 0)
        #expect(budget.playerCount == 0)
    }

    @Test func visibleAndRecentlyStartedPlayersAreServedFirstAndOthersTakeTheirShareBack() async {
        let clock = ManualAnimationClock()
        // Three minimums and four frames to spare.
        let budget = AnimationFrameBudget(limit: 3 * 2 * Self.frameBytes + 4 * Self.frameBytes)
        let offScreen = Self.player(in: budget, clock: clock)
        offScreen.isVisible = false
        let earlier = Self.player(in: budget, clock: clock)
        let latest = Self.player(in: budget, clock: clock)
        for player in [offScreen, earlier, latest] { player.play() }
        // The latest started takes the spare frames; the others keep their next frame.
        #expect(await eventually { latest.bufferedFrameIndices == [1, 2, 3, 4, 5] })
        #expect(await eventually { earlier.bufferedFrameIndices == [1] && offScreen.bufferedFrameIndices == [1] })

        // The latest stops: its minimum and the spare (six frames now) go to the visible
        // one, which buffers as far as its own limit allows; the one off screen gains nothing.
        latest.stop()
        #expect(await eventually { earlier.bufferedFrameIndices == Array(1...7) })
        #expect(offScreen.bufferedFrameIndices == [1])

        // On screen and off it swap: the buffers follow, down to the next frame for the one
        // that left the screen.
        earlier.isVisible = false
        offScreen.isVisible = true
        #expect(await eventually { offScreen.bufferedFrameIndices == Array(1...7) && earlier.bufferedFrameIndices == [1] })
        #expect(budget.peakHeldByteCount <= budget.limit)

        // Both play on, each still shown a frame at every step.
        for step in 1...3 {
            #expect(await eventually { Self.hasNextFrame(offScreen) && Self.hasNextFrame(earlier) })
            clock.advance(by: 0.1)
            #expect(offScreen.currentFrameIndex == step && earlier.currentFrameIndex == step)
        }
        #expect(budget.peakHeldByteCount <= budget.limit)
    }

    @Test func aBudgetBelowTheMinimumsStillLetsEveryPlayerPlay() async {
        let clock = ManualAnimationClock()
        let budget = AnimationFrameBudget(limit: 0)
        let players = (0..<3).map { _ in Self.player(in: budget, clock: clock) }
        for player in players { player.play() }
        for step in 1...5 {
            #expect(await eventually { players.allSatisfy(Self.hasNextFrame) })
            clock.advance(by: 0.1)
            #expect(players.allSatisfy { $0.currentFrameIndex == step })
        }
        #expect(players.allSatisfy { $0.bufferedFrameIndices.count <= 1 }, "nothing beyond the next frame")
        #expect(budget.peakHeldByteCount <= 3 * 2 * Self.frameBytes, "the minimums and no more")
    }

    @Test func aPausedPlayerKeepsItsShareAndAFinishedOneGivesItBack() async {
        let clock = ManualAnimationClock()
        let budget = AnimationFrameBudget(limit: 1 << 20)
        let player = AnimatedImagePlayer(
            Self.animation(frameCount: 3), clock: clock, loopCount: 1, maxBufferSize: 2 * Self.frameBytes, frameBudget: budget)
        player.play()
        #expect(await eventually { player.bufferedFrameIndices == [1, 2] })
        player.pause()
        #expect(budget.heldByteCount == 3 * Self.frameBytes, "the frame showing and the two ahead")
        player.play()
        clock.advance(by: 0.1)
        #expect(await eventually { Self.hasNextFrame(player) })
        clock.advance(by: 0.2)
        #expect(!player.isPlaying)
        #expect(budget.heldByteCount == 0)
        #expect(budget.playerCount == 0)
    }
}
