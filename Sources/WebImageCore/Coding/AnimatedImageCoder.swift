import Foundation

/// A coder for a format that can hold an animation.
public protocol AnimatedImageCoder: ImageCoder {
    /// Reads the animation's structure — frame count, loop count, frame durations and
    /// canvas size — without decoding any pixel.
    func animationInfo(of data: Data) throws(ImageError) -> AnimationInfo
}
