import Foundation

/// A coder for a format that can hold an animation.
public protocol AnimatedImageCoder: ImageCoder {
    /// Reads the animation's structure — frame count, loop count, frame durations and
    /// canvas size — without decoding any pixel.
    func animationInfo(of data: Data) throws(ImageError) -> AnimationInfo

    /// A decoder that composes the frames of the animation in `bytes` one at a time, for
    /// an ``AnimatedImage``; `nil` when this coder cannot decode frames one by one, or
    /// when `bytes` hold a still image.
    ///
    /// The decoder may keep pointers into `bytes` (and keep `bytes` alive) for its whole
    /// life. Making it reads the file's structure, not its pixels.
    ///
    /// - Throws: ``ImageError/Code/badImageData`` when the animation's structure is corrupt.
    func makeFrameDecoder(for bytes: PinnedBytes) throws(ImageError) -> (any AnimatedFrameDecoder)?
}

extension AnimatedImageCoder {
    /// None: a coder decodes frames one by one by implementing this method.
    public func makeFrameDecoder(for bytes: PinnedBytes) throws(ImageError) -> (any AnimatedFrameDecoder)? { nil }
}
