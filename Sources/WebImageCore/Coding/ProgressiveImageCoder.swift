import Foundation

/// A coder that can show an image before all of its bytes have arrived.
///
/// The downloader calls ``decodeIncrementally(_:isComplete:options:)`` with every byte
/// received so far; the coder returns what those bytes already show (the rows decoded
/// so far, or a coarse pass of a progressive JPEG), or `nil` when they show nothing yet.
public protocol ProgressiveImageCoder: ImageCoder {
    /// Whether partial images can be made from this (possibly incomplete) data.
    func canDecodeIncrementally(_ data: Data) -> Bool

    /// Decodes the bytes received so far into a partial image (only the first frame of
    /// an animation). Returns `nil` when the bytes do not yet reach any pixel.
    ///
    /// - Parameters:
    ///   - data: Every byte received so far.
    ///   - isComplete: `true` when `data` is the whole file.
    ///   - options: How to decode, as for a full decode.
    /// - Throws: ``ImageError`` when the bytes received so far are already invalid.
    func decodeIncrementally(_ data: Data, isComplete: Bool, options: ImageDecodeOptions) throws(ImageError) -> Image?
}
