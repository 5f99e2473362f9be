/// Decodes the frames of one animation one at a time, keeping what the format needs to
/// compose the next frame (the canvas, a saved region, the decoder's position).
///
/// An animated coder makes one for each file (see
/// ``AnimatedImageCoder/makeFrameDecoder(for:)``); an ``AnimatedImage`` owns it and calls
/// it under a lock, so a decoder is used by one thread at a time and need not be
/// `Sendable`.
///
/// ## Cost of random access
///
/// Decoding goes forward. Asking for an earlier frame means going back with
/// ``rewind(toKeyFrameAtOrBefore:)`` and decoding forward again from there: a decoder
/// that recognises key frames (frames that cover the canvas and do not depend on what
/// was drawn before) goes back to the nearest one, the others go back to frame 0, so one
/// frame out of order can cost up to a whole pass over the animation.
public protocol AnimatedFrameDecoder: AnyObject {
    /// The index of the frame ``decodeNextFrame()`` decodes.
    var nextFrameIndex: Int { get }

    /// Decodes the frame at ``nextFrameIndex``, composes it onto the canvas, returns the
    /// whole canvas as that frame shows it, and moves on to the next frame.
    ///
    /// - Throws: ``ImageError/Code/badImageData`` when the frame's data is corrupt or
    ///   missing; the decoder is then rewound to frame 0.
    func decodeNextFrame() throws(ImageError) -> Bitmap

    /// Prepares to reach frame `index` by decoding forward with the fewest frames: stays
    /// where it is when ``nextFrameIndex`` is at or before `index` and no key frame lies
    /// between them, else moves to the latest key frame at or before `index` (a frame from
    /// which decoding gives the same pictures as decoding from frame 0), at worst frame 0.
    func rewind(toKeyFrameAtOrBefore index: Int)
}
