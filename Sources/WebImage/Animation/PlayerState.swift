/// Everything an ``AnimatedImagePlayer`` changes, guarded by its lock.
struct PlayerState: Sendable {
    /// Where the player is in its life.
    enum Phase: Sendable, Equatable {
        /// Not playing; the buffer is empty.
        case stopped
        /// Playing, but the frame at ``PlayerState/position`` has not decoded yet; it shows
        /// (and its time starts) when it has.
        case waitingForFrame
        /// Playing: the current frame's time ends at ``PlayerState/deadline``.
        case playing
        /// Paused with this much of the current frame's time left (`nil` when it was still
        /// waiting for its frame).
        case paused(remaining: Double?)
        /// Every loop has played; the last frame stays.
        case finished
        /// The animation is incomplete and its last frame received so far has had its time:
        /// that frame stays until a longer animation arrives.
        case holding
    }

    /// The animation playing: the player's first, or a longer one that continues it.
    var animation: AnimatedImage
    /// Whether ``loopCount`` is the animation's own, so that a longer animation brings its.
    let takesAnimationLoopCount: Bool

    var sequence: PlaybackSequence
    var rate: Double
    var loopCount: Int
    var maxBufferSize: Int
    var phase = Phase.stopped
    /// The position in one pass of ``sequence``.
    var position = 0
    var finishedLoops = 0
    var currentIndex: Int?
    var currentFrame: ImageFrame?
    var deadline: Double = 0
    var timer: AnimationTimer?
    /// Bumped whenever a scheduled tick must no longer run.
    var tick = 0
    /// Decoded frames ahead of the current one, by frame index.
    var buffer: [Int: ImageFrame] = [:]
    var bufferedBytes = 0
    /// Whether the player is counted in its frame budget (from when it becomes active until
    /// it stops or finishes).
    var isInBudget = false
    /// Whether the player is on screen, for its frame budget's order.
    var isVisible = true
    /// The bytes of the frame showing counted in the budget (0 for a frame shown before the
    /// player last stopped).
    var currentFrameCharge = 0
    /// The bytes reserved in the budget for the decode in flight.
    var decodeCharge = 0
    /// The frame being decoded, if any: one at a time per player.
    var decodingFrame: Int?
    /// Bumped by `stop`, so decodes started before it are dropped.
    var generation = 0
    /// The decodes that have returned, whether their frame was kept or dropped (so a test
    /// can wait for a decode to land instead of sleeping).
    var settledDecodeCount = 0
    var failedFrames: Set<Int> = []
    var skippedFrames = 0
    /// The bytes of a decoded (and transformed) frame, once one has been seen.
    var measuredFrameBytes: Int?
    var onFrameChange: AnimatedImagePlayer.FrameHandler?
    var onLoopFinish: AnimatedImagePlayer.LoopHandler?
    var onFinish: (@Sendable () -> Void)?

    /// Whether the buffer should be filled: the player is playing, waiting or paused.
    var isActive: Bool {
        switch phase {
        case .waitingForFrame, .playing, .paused, .holding: true
        case .stopped, .finished: false
        }
    }
}
