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

    /// The frames of the animation whose bytes have wholly arrived in `data`, the start of
    /// a file still downloading, for progressive animation: a frame counts once every byte
    /// of it is in `data`, and reading never goes past the end of `data`.
    ///
    /// - Returns: `nil` when `data` holds no complete frame yet, holds a still image, or
    ///   when this coder cannot read partial animations.
    /// - Throws: ``ImageError/Code/badImageData`` when the bytes received are already
    ///   corrupt.
    func animationPrefix(of data: Data) throws(ImageError) -> AnimationPrefix?
}

extension AnimatedImageCoder {
    /// None: a coder decodes frames one by one by implementing this method.
    public func makeFrameDecoder(for bytes: PinnedBytes) throws(ImageError) -> (any AnimatedFrameDecoder)? { nil }

    /// None: a coder reads partial animations by implementing this method.
    public func animationPrefix(of data: Data) throws(ImageError) -> AnimationPrefix? { nil }
}
