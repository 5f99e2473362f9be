import NIOConcurrencyHelpers

/// What an ``AnimatedImageTarget`` plays with: the player of the animation it shows, the
/// clock and buffer settings new players get, and whether the target is on screen.
///
/// A player starts when the target is on screen; taking the target off screen stops it,
/// emptying its buffer, and putting it back plays the animation again from its start.
public final class AnimationPlayback: Sendable {
    /// The clock new players play by.
    public let clock: any AnimationClock
    /// The buffer limit of new players (0: automatic).
    public let maxBufferSize: Int
    /// Applied to each frame as it decodes, for example the resize the target needs.
    public let frameTransformer: (any ImageTransformer)?
    private let state = NIOLockedValueBox<(player: AnimatedImagePlayer?, isOnScreen: Bool)>((nil, true))

    /// Settings for the players of one target, which starts on screen.
    public init(
        clock: any AnimationClock = SystemAnimationClock(),
        maxBufferSize: Int = 0,
        frameTransformer: (any ImageTransformer)? = nil
    ) {
        self.clock = clock
        self.maxBufferSize = maxBufferSize
        self.frameTransformer = frameTransformer
    }

    /// The player of the animation shown, if one is.
    public var player: AnimatedImagePlayer? {
        state.withLockedValue { $0.player }
    }

    /// Whether the target is on screen: setting `false` stops the player and frees its
    /// buffer, setting `true` plays it again.
    public var isOnScreen: Bool {
        get { state.withLockedValue { $0.isOnScreen } }
        set {
            let player = state.withLockedValue { state in
                let changed = state.isOnScreen != newValue
                state.isOnScreen = newValue
                return changed ? state.player : nil
            }
            if newValue { player?.play() } else { player?.stop() }
        }
    }

    /// Stops the player playing, if any, and plays `player` instead when on screen.
    /// Runs `show` for a frame of `player` only while it is the playing one, holding the
    /// lock ``replacePlayer(with:)`` takes, so a frame decoded just before its player was
    /// replaced never shows over what replaced it.
    func deliver(from player: AnimatedImagePlayer, _ show: () -> Void) {
        state.withLockedValue { state in
            if state.player === player { show() }
        }
    }

    func replacePlayer(with player: AnimatedImagePlayer?) {
        let (old, isOnScreen) = state.withLockedValue { state in
            defer { state.player = player }
            return (state.player, state.isOnScreen)
        }
        old?.stop()
        if isOnScreen { player?.play() }
    }
}
