/// The frames one pass (loop) of a playback mode shows, by position.
struct PlaybackSequence: Sendable, Equatable {
    let mode: AnimationPlaybackMode
    let frameCount: Int

    /// Positions in one pass: n for normal and reverse, 2n − 2 for the bounces (1 for a
    /// single frame).
    var length: Int {
        switch mode {
        case .normal, .reverse: frameCount
        case .bounce, .reversedBounce: max(1, 2 * frameCount - 2)
        }
    }

    /// The frame shown at `position` (0 ≤ position < ``length``).
    func frame(at position: Int) -> Int {
        let forward = position < frameCount ? position : 2 * frameCount - 2 - position
        switch mode {
        case .normal: return position
        case .reverse: return frameCount - 1 - position
        case .bounce: return forward
        case .reversedBounce: return frameCount - 1 - forward
        }
    }

    /// The first position showing `frame`.
    func position(of frame: Int) -> Int {
        (0..<length).first { self.frame(at: $0) == frame } ?? 0
    }
}
