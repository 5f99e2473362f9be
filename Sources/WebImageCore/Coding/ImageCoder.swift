import Foundation

/// Decodes and encodes one or more image formats.
///
/// Coders are registered with an ``ImageCodersManager``; the manager asks each, the most
/// recently added first, whether it can handle some data, so a custom coder added later
/// overrides a built-in one.
///
/// ## Implementation requirements
///
/// The library calls a coder from its decoding threads, for downloads, files, `data:`
/// URLs and disk-cache hits alike, and trusts it with bytes from anywhere. A conforming
/// type must therefore keep these rules:
///
/// - **Concurrency.** Every method may run on several threads at once, for different
///   data. Keep no mutable state between calls, or guard it with a lock. Each call is
///   synchronous and may block its thread for as long as the work takes; the library
///   never calls a coder from an event loop or the cooperative pool.
/// - **Cheap questions.** ``canDecode(_:)`` and ``canEncode(to:)`` look at a signature or
///   a format and return at once: no decoding, no allocation that grows with the data.
///   ``pixelSize(of:)`` reads a header and nothing more.
/// - **Upright, uniform output.** ``decode(_:options:)`` returns frames that have the
///   EXIF (or equivalent) orientation already applied, all of one size and one
///   ``PixelFormat``, with straight alpha (opaque sources carry full alpha).
/// - **Options honoured.** Read the dimensions from the header first and refuse a frame
///   larger than ``ImageDecodeOptions/maxPixelCount`` (or frames together larger than
///   ``ImageDecodeOptions/maxTotalBytes``) with ``ImageError/Code/imageTooLarge`` *before*
///   allocating pixel memory — including what the C library allocates internally.
///   Decode at reduced size for ``ImageDecodeOptions/thumbnailPixelSize`` and
///   ``ImageDecodeOptions/scaleDownLimitBytes`` where the library can, else decode and
///   resample; give the image ``ImageDecodeOptions/scaleFactor``; stop after the first
///   frame for ``ImageDecodeOptions/firstFrameOnly``.
/// - **Typed failures, never a crash.** Corrupt, truncated or hostile input ends in an
///   ``ImageError``: ``ImageError/Code/badImageData`` for bytes that are not a valid
///   image (a truncated file is never returned as if complete),
///   ``ImageError/Code/imageTooLarge`` for limits, ``ImageError/Code/encodingFailed``
///   when writing fails. A coder never traps, calls `exit`, lets a C library `longjmp`
///   across Swift frames, loops without bound, or prints.
/// - **Ownership.** The returned ``Image`` owns its pixels; nothing in it may point into
///   `data` or into memory a C library frees later.
public protocol ImageCoder: Sendable {
    /// The formats this coder decodes, for listings such as ``ImageCodersManager/decodableFormats``
    /// and the downloader's `Accept` header. A coder that does not say lists none.
    var decodableFormats: Set<ImageFormat> { get }

    /// Whether this coder can decode `data` (usually a look at its signature).
    func canDecode(_ data: Data) -> Bool

    /// The pixel size the header of `data` declares (as stored, before any orientation is
    /// applied), read without decoding pixels; `nil` when this coder cannot tell without
    /// decoding.
    ///
    /// The library uses it to check bytes it stores without decoding them (a prefetch into
    /// the disk cache), so a coder that answers lets those stores refuse oversized images.
    ///
    /// - Throws: ``ImageError/Code/badImageData`` when the header is missing or corrupt.
    func pixelSize(of data: Data) throws(ImageError) -> PixelSize?

    /// Decodes `data` into an upright image.
    ///
    /// - Throws: ``ImageError`` — ``ImageError/Code/badImageData`` for corrupt or truncated
    ///   data, ``ImageError/Code/imageTooLarge`` when the options' limits would be passed.
    func decode(_ data: Data, options: ImageDecodeOptions) throws(ImageError) -> Image

    /// Whether this coder can write `format`.
    func canEncode(to format: ImageFormat) -> Bool

    /// Encodes `image` as `format`.
    ///
    /// An implementation starts with ``ImageEncodeOptions/prepared(_:for:)``, so that
    /// ``ImageEncodeOptions/maxPixelSize`` and ``ImageEncodeOptions/background`` apply
    /// however the coder is reached.
    ///
    /// - Throws: ``ImageError/Code/encodingFailed`` when the library refuses the image.
    func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(ImageError) -> Data
}

extension ImageCoder {
    /// None: a coder lists its formats by implementing this property.
    public var decodableFormats: Set<ImageFormat> { [] }

    /// Unknown: a coder reads its header by implementing this method.
    public func pixelSize(of data: Data) throws(ImageError) -> PixelSize? { nil }
}
