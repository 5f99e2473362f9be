/// The part of an animation that the bytes received so far hold: the frames that have
/// wholly arrived, and the bytes a frame decoder reads them from.
///
/// An ``AnimatedImageCoder`` makes one in ``AnimatedImageCoder/animationPrefix(of:)`` for
/// an ``AnimatedImage`` that grows while its file downloads.
public struct AnimationPrefix: Sendable {
    /// The structure of the complete frames only: their durations, the canvas and the loop
    /// count declared so far.
    public var info: AnimationInfo
    /// The bytes to open a frame decoder on (``AnimatedImageCoder/makeFrameDecoder(for:)``):
    /// the bytes received, or the part of them the complete frames need, made readable as a
    /// file of its own where the format asks for that.
    public var bytes: PinnedBytes
    /// Whether the whole animation has arrived, so that ``info`` is final.
    public var isComplete: Bool

    /// Describes the complete frames of a partial animation.
    public init(info: AnimationInfo, bytes: PinnedBytes, isComplete: Bool) {
        self.info = info
        self.bytes = bytes
        self.isComplete = isComplete
    }
}
