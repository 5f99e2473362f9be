import NIOConcurrencyHelpers

/// What an ``AnimatedImageTarget`` plays with: the player of the animation it shows, the
/// clock, buffer settings and frame budget new players get, and whether the target is on
/// screen.
///
/// A player starts when the target is on screen; taking the target off screen stops it,
/// emptying its buffer, and putting it back plays the animation again from its start.
public final class AnimationPlayback: Sendable {
    /// The clock new players play by.
    public let clock: any AnimationClock
    /// The buffer limit of new players in bytes (0: automatic), unless
    /// ``maxBufferedFrames`` is set.
    public let maxBufferSize: Int
    /// The buffer limit of new players in frames of their animation's size (0: use
    /// ``maxBufferSize``): a bound that holds whatever the frame size, for targets of which
    /// many play at once.
    public let maxBufferedFrames: Int
    /// Applied to each frame as it decodes, for example the resize the target needs.
    public let frameTransformer: (any ImageTransformer)?
    /// The budget new players' decoded frames count in, shared with other targets' players.
    public let frameBudget: AnimationFrameBudget
    private let state = NIOLockedValueBox(State())

    private struct State {
        var player: AnimatedImagePlayer?
        var isOnScreen = true
        var autoPlayAnimatedImage = true
        var framesShown = 0
        var framesSkippedByStoppedPlayers = 0
    }

    /// Settings for the players of one target, which starts on screen.
    public init(
        clock: any AnimationClock = SystemAnimationClock(),
        maxBufferSize: Int = 0,
        maxBufferedFrames: Int = 0,
        frameTransformer: (any ImageTransformer)? = nil,
        frameBudget: AnimationFrameBudget = .shared
    ) {
        self.clock = clock
        self.maxBufferSize = maxBufferSize
        self.maxBufferedFrames = max(0, maxBufferedFrames)
        self.frameTransformer = frameTransformer
        self.frameBudget = frameBudget
    }

    /// The player of the animation shown, if one is.
    public var player: AnimatedImagePlayer? {
        state.withLockedValue { $0.player }
    }

    /// How many frames this target's players have shown.
    public var framesShown: Int {
        state.withLockedValue { $0.framesShown }
    }

    /// How many frames this target's players have skipped because they were not decoded in
    /// time (see ``AnimatedImagePlayer/skippedFrameCount``).
    public var framesSkipped: Int {
        let (player, skipped) = state.withLockedValue { ($0.player, $0.framesSkippedByStoppedPlayers) }
        return skipped + (player?.skippedFrameCount ?? 0)
    }

    /// The buffer limit, in bytes, of a player of `animation`.
    func bufferLimit(for animation: AnimatedImage) -> Int {
        maxBufferedFrames > 0 ? maxBufferedFrames * animation.frameByteCount : maxBufferSize
    }

    /// Whether the target is on screen: setting `false` stops the player and frees its
    /// buffer, setting `true` plays it again (when ``autoPlayAnimatedImage``).
    public var isOnScreen: Bool {
        get { state.withLockedValue { $0.isOnScreen } }
        set {
            let (player, autoPlay) = state.withLockedValue { state in
                let changed = state.isOnScreen != newValue
                state.isOnScreen = newValue
                return (changed ? state.player : nil, state.autoPlayAnimatedImage)
            }
            if newValue {
                if autoPlay { player?.play() }
            } else {
                player?.stop()
            }
        }
    }

    /// Whether an animation starts playing as soon as the target is given it (`true`, the
    /// default, as SDWebImage's `autoPlayAnimatedImage`). When `false` the target shows the
    /// poster and ``player`` waits for its `play()`; coming back on screen does not start it.
    public var autoPlayAnimatedImage: Bool {
        get { state.withLockedValue { $0.autoPlayAnimatedImage } }
        set { state.withLockedValue { $0.autoPlayAnimatedImage = newValue } }
    }

    /// Runs `show` for a frame of `player` only while it is the playing one, holding the
    /// lock ``replacePlayer(with:)`` takes, so a frame decoded just before its player was
    /// replaced never shows over what replaced it.
    func deliver(from player: AnimatedImagePlayer, _ show: () -> Void) {
        state.withLockedValue { state in
            guard state.player === player else { return }
            show()
            state.framesShown += 1
        }
    }

    /// Stops the player playing, if any, and plays `player` instead when on screen and
    /// ``autoPlayAnimatedImage``.
    func replacePlayer(with player: AnimatedImagePlayer?) {
        let (old, plays) = state.withLockedValue { state in
            defer { state.player = player }
            return (state.player, state.isOnScreen && state.autoPlayAnimatedImage)
        }
        old?.stop()
        if let old {
            // Asked outside this lock, as every call into a player is.
            let skipped = old.skippedFrameCount
            state.withLockedValue { $0.framesSkippedByStoppedPlayers += skipped }
        }
        if plays { player?.play() }
    }
}
