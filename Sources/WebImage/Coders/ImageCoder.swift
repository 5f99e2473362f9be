import Foundation

/// Decodes and encodes one or more image formats.
///
/// Coders are registered with an ``ImageCodersManager``; the manager asks each, the most
/// recently added first, whether it can handle some data, so a custom coder added later
/// overrides a built-in one. Coders must be safe to call from several threads at once.
public protocol ImageCoder: Sendable {
    /// Whether this coder can decode `data` (usually a look at its signature).
    func canDecode(_ data: Data) -> Bool

    /// Decodes `data` into an upright image.
    ///
    /// - Throws: ``ImageError`` — ``ImageError/Code/badImageData`` for corrupt or truncated
    ///   data, ``ImageError/Code/imageTooLarge`` when the options' limits would be passed.
    func decode(_ data: Data, options: ImageDecodeOptions) throws(ImageError) -> Image

    /// Whether this coder can write `format`.
    func canEncode(to format: ImageFormat) -> Bool

    /// Encodes `image` as `format`.
    ///
    /// - Throws: ``ImageError/Code/encodingFailed`` when the library refuses the image.
    func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(ImageError) -> Data
}
