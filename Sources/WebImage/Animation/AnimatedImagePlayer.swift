import NIOConcurrencyHelpers

/// Plays an `AnimatedImage`: shows its frames at their durations, in the order a
/// ``AnimationPlaybackMode`` gives, as many loops as asked — SDWebImage's
/// `SDAnimatedImagePlayer`.
///
/// Time comes from an ``AnimationClock``. Frames ahead of the current one are decoded on
/// the library's decoding threads (one decode at a time per player, so players share the
/// threads) into a buffer of at most ``maxBufferSize`` bytes, within the player's share of
/// its ``frameBudget`` (one budget for every player unless given another). The display path
/// never waits for a decode: when a frame's time comes and it is not decoded, its time passes with the
/// previous frame still showing and it counts in ``skippedFrameCount``. Only the first
/// frame after ``play()`` or ``seek(toFrame:loop:)`` is waited for, without blocking: its
/// time starts when it has decoded.
///
/// While a file downloads, ``extend(with:)`` hands the player a longer version of its
/// animation (progressive animation): play goes on from the frame showing, and while the
/// animation is incomplete the player holds the last frame received instead of looping,
/// until more frames arrive.
///
/// Callbacks (``onFrameChange``, ``onLoopFinish``, ``onFinish``) run without the player's
/// lock, on the clock's thread, or on a decoding thread for a first frame that had to be
/// waited for. Keep them short.
///
/// ```swift
/// let player = AnimatedImagePlayer(animation)
/// player.onFrameChange = { index, frame in cell.show(frame.bitmap) }
/// player.play()
/// ```
public final class AnimatedImagePlayer: Sendable {
    /// Called with the index of the frame now showing and the frame.
    public typealias FrameHandler = @Sendable (_ index: Int, _ frame: ImageFrame) -> Void
    /// Called with the number of loops finished so far.
    public typealias LoopHandler = @Sendable (_ finishedLoops: Int) -> Void

    /// The shortest time a frame shows, in seconds at rate 1: a duration of 0 would
    /// otherwise spin.
    public static let minimumFrameDuration = 0.01
    /// The most bytes the automatic buffer (``maxBufferSize`` 0) holds: 8 MiB, or less on a
    /// machine with less than 4 GiB (1/512 of the memory available), and always at least
    /// one frame.
    public static var automaticBufferBudget: Int { min(8 << 20, ProcessMemory.available / 512) }

    /// The animation being played: the one the player was made with, or the longer one
    /// ``extend(with:)`` last gave it.
    public var animation: AnimatedImage {
        state.withLockedValue { $0.animation }
    }

    /// The budget the player's decoded frames count in, shared with other players.
    public let frameBudget: AnimationFrameBudget
    let clock: any AnimationClock
    let frameTransformer: (any ImageTransformer)?
    let state: NIOLockedValueBox<PlayerState>

    /// A stopped player for `animation`.
    ///
    /// - Parameters:
    ///   - animation: The animation to play.
    ///   - clock: The time to play by.
    ///   - mode: The order frames show in.
    ///   - rate: How fast: 2 plays twice as fast. Must be above 0.
    ///   - loopCount: How many loops to play before stopping on the last frame; 0 plays
    ///     forever; `nil` takes the animation's own (and that of a longer animation
    ///     ``extend(with:)`` gives).
    ///   - maxBufferSize: The most bytes of decoded frames kept ahead; 0 chooses from the
    ///     frame size and ``automaticBufferBudget``. Below one frame's bytes nothing can be
    ///     buffered, so no frame after the first can show.
    ///   - frameTransformer: Applied to each frame as it decodes (for example the resize
    ///     a target needs); the buffer holds its results.
    ///   - frameBudget: The budget the decoded frames count in, shared with other players;
    ///     the buffer holds no more than the player's share of it.
    public init(
        _ animation: AnimatedImage,
        clock: any AnimationClock = SystemAnimationClock(),
        mode: AnimationPlaybackMode = .normal,
        rate: Double = 1,
        loopCount: Int? = nil,
        maxBufferSize: Int = 0,
        frameTransformer: (any ImageTransformer)? = nil,
        frameBudget: AnimationFrameBudget = .shared
    ) {
        precondition(rate > 0, "the playback rate must be above 0")
        self.clock = clock
        self.frameBudget = frameBudget
        self.frameTransformer = frameTransformer
        state = NIOLockedValueBox(
            PlayerState(
                animation: animation,
                takesAnimationLoopCount: loopCount == nil,
                sequence: PlaybackSequence(mode: mode, frameCount: animation.frameCount),
                rate: rate,
                loopCount: max(0, loopCount ?? animation.loopCount),
                maxBufferSize: max(0, maxBufferSize)
            ))
    }

    deinit {
        state.withLockedValue { $0.timer?.cancel() }
        frameBudget.leave(budgetKey)
    }

    // MARK: Settings

    /// The order frames show in; changing it keeps the frame showing. A player at the start
    /// of its first loop, not playing (made, or stopped), starts from the new mode's first
    /// frame: the last one for ``AnimationPlaybackMode/reverse`` and
    /// ``AnimationPlaybackMode/reversedBounce``, as when the mode is given to the initializer.
    public var playbackMode: AnimationPlaybackMode {
        get { state.withLockedValue { $0.sequence.mode } }
        set {
            let effects = state.withLockedValue { state in
                let atStart = state.phase == .stopped && state.position == 0 && state.finishedLoops == 0
                let frame = state.sequence.frame(at: state.position)
                state.sequence = PlaybackSequence(mode: newValue, frameCount: state.animation.frameCount)
                state.position = atStart ? 0 : state.sequence.position(of: frame)
                return refill(&state)
            }
            perform(effects)
        }
    }

    /// How fast the animation plays (above 0); a change applies from the next frame.
    public var playbackRate: Double {
        get { state.withLockedValue { $0.rate } }
        set {
            precondition(newValue > 0, "the playback rate must be above 0")
            state.withLockedValue { $0.rate = newValue }
        }
    }

    /// How many loops play before the player stops on the last frame; 0 is forever.
    public var loopCount: Int {
        get { state.withLockedValue { $0.loopCount } }
        set { state.withLockedValue { $0.loopCount = max(0, newValue) } }
    }

    /// The most bytes of decoded frames kept ahead of the current one; 0 is automatic.
    /// Lowering it below what is buffered empties the buffer.
    public var maxBufferSize: Int {
        get { state.withLockedValue { $0.maxBufferSize } }
        set {
            let effects = state.withLockedValue { state in
                state.maxBufferSize = max(0, newValue)
                if state.bufferedBytes > bufferLimit(state) {
                    frameBudget.release(state.bufferedBytes, for: budgetKey)
                    state.buffer = [:]
                    state.bufferedBytes = 0
                }
                return refill(&state)
            }
            perform(effects)
        }
    }

    /// Whether the player is on screen (`true` unless set): in its ``frameBudget``, players
    /// on screen are served before those off it.
    public var isVisible: Bool {
        get { state.withLockedValue { $0.isVisible } }
        set {
            let effects = state.withLockedValue { state in
                state.isVisible = newValue
                return refill(&state)
            }
            perform(effects)
        }
    }

    /// Called when another frame shows.
    public var onFrameChange: FrameHandler? {
        get { state.withLockedValue { $0.onFrameChange } }
        set { state.withLockedValue { $0.onFrameChange = newValue } }
    }

    /// Called each time a loop finishes, with the number finished so far.
    public var onLoopFinish: LoopHandler? {
        get { state.withLockedValue { $0.onLoopFinish } }
        set { state.withLockedValue { $0.onLoopFinish = newValue } }
    }

    /// Called once every loop of ``loopCount`` has played.
    public var onFinish: (@Sendable () -> Void)? {
        get { state.withLockedValue { $0.onFinish } }
        set { state.withLockedValue { $0.onFinish = newValue } }
    }

    // MARK: State

    /// Whether the player is playing (also while its first frame decodes, and while it holds
    /// the last frame of an incomplete animation).
    public var isPlaying: Bool {
        state.withLockedValue { $0.phase == .playing || $0.phase == .waitingForFrame || $0.phase == .holding }
    }

    /// Whether the player holds the last frame received of an incomplete animation, its
    /// time over, until ``extend(with:)`` brings more frames.
    public var isWaitingForFrames: Bool {
        state.withLockedValue { $0.phase == .holding }
    }

    /// The index of the frame showing; `nil` before any has shown.
    public var currentFrameIndex: Int? {
        state.withLockedValue { $0.currentIndex }
    }

    /// The frame showing (after the frame transformer); `nil` before any has shown.
    public var currentFrame: ImageFrame? {
        state.withLockedValue { $0.currentFrame }
    }

    /// The loops finished since the player started or was stopped.
    public var finishedLoopCount: Int {
        state.withLockedValue { $0.finishedLoops }
    }

    /// The frames whose time came before they had decoded, so they never showed.
    public var skippedFrameCount: Int {
        state.withLockedValue { $0.skippedFrames }
    }

    /// The decodes that have returned, kept or dropped.
    var settledDecodeCount: Int {
        state.withLockedValue { $0.settledDecodeCount }
    }

    /// The indices of the frames decoded ahead, in ascending order.
    public var bufferedFrameIndices: [Int] {
        state.withLockedValue { $0.buffer.keys.sorted() }
    }

    /// The bytes of the frames decoded ahead; never above the buffer's limit.
    public var bufferedByteCount: Int {
        state.withLockedValue { $0.bufferedBytes }
    }

    // MARK: Control

    /// Starts playing from the beginning, or resumes where ``pause()`` left off. A player
    /// that has finished its loops starts again. In its ``frameBudget`` the player now
    /// counts as the one that started most recently.
    public func play() {
        let effects = state.withLockedValue { state -> [PlayerEffect] in
            syncBudget(&state, played: true)
            switch state.phase {
            case .playing, .waitingForFrame, .holding:
                return []
            case .paused(let remaining?):
                state.phase = .playing
                state.deadline = clock.now + remaining
                schedule(&state)
                return refill(&state)
            case .paused(nil):
                state.phase = .waitingForFrame
            case .finished:
                state.position = 0
                state.finishedLoops = 0
                state.phase = .waitingForFrame
            case .stopped:
                state.phase = .waitingForFrame
            }
            return showWaitingFrame(&state) + refill(&state)
        }
        perform(effects)
    }

    /// Pauses on the frame showing; ``play()`` resumes with the rest of its time.
    public func pause() {
        state.withLockedValue { state in
            switch state.phase {
            case .playing:
                state.phase = .paused(remaining: max(0, state.deadline - clock.now))
            case .holding:
                state.phase = .paused(remaining: 0)
            case .waitingForFrame:
                state.phase = .paused(remaining: nil)
            case .paused, .stopped, .finished:
                return
            }
            cancelTimer(&state)
        }
    }

    /// Stops playing, empties the buffer and goes back to the start of the first loop; the
    /// frame showing stays until another shows. The player gives back everything it held in
    /// its ``frameBudget``.
    public func stop() {
        state.withLockedValue { state in
            cancelTimer(&state)
            state.phase = .stopped
            state.position = 0
            state.finishedLoops = 0
            leaveBudget(&state)
            state.decodingFrame = nil
            state.generation += 1
        }
    }

    /// Moves to `frame` in loop `loop` (0 is the first). The frame shows at once when it is
    /// buffered, else as soon as it has decoded, whether the player is playing or not (as
    /// SDWebImage's player shows a sought frame at once). A player that is not playing
    /// stays paused on that frame, and ``play()`` gives it its whole time.
    ///
    /// - Precondition: `frame` is in `0..<animation.frameCount`.
    public func seek(toFrame frame: Int, loop: Int = 0) {
        let effects = state.withLockedValue { state -> [PlayerEffect] in
            precondition(frame >= 0 && frame < state.animation.frameCount, "frame \(frame) is outside the animation")
            cancelTimer(&state)
            state.position = state.sequence.position(of: frame)
            state.finishedLoops = max(0, loop)
            switch state.phase {
            case .playing, .waitingForFrame, .finished, .holding:
                state.phase = .waitingForFrame
                return showWaitingFrame(&state) + refill(&state)
            case .paused, .stopped:
                state.phase = .paused(remaining: nil)
                return showWaitingFrame(&state) + refill(&state)
            }
        }
        perform(effects)
    }

    /// Plays `longer`, a longer version of the animation playing (one that
    /// `AnimatedImage.continues(_:)` it, made from more of the bytes of a file still
    /// downloading), without starting again: the frame showing, its time and the loops
    /// finished stay, and so do the frames buffered, which are the same in `longer`. A player
    /// holding the last frame received goes on to the next frame as soon as it has decoded;
    /// once `longer` is complete the player loops as usual.
    ///
    /// - Precondition: `longer` has at least as many frames as ``animation``.
    public func extend(with longer: AnimatedImage) {
        let effects = state.withLockedValue { state -> [PlayerEffect] in
            precondition(longer.frameCount >= state.animation.frameCount, "the longer animation has fewer frames")
            let frame = state.sequence.frame(at: state.position)
            state.animation = longer
            state.sequence = PlaybackSequence(mode: state.sequence.mode, frameCount: longer.frameCount)
            state.position = state.sequence.position(of: frame)
            state.failedFrames = []
            if state.takesAnimationLoopCount { state.loopCount = longer.loopCount }
            guard state.phase == .holding else { return refill(&state) }
            return resumeAfterHolding(&state)
        }
        perform(effects)
    }
}
