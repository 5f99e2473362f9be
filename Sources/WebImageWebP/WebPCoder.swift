import CWebP
import Foundation
import WebImageCore

/// Decodes and encodes WebP with libwebp: lossy, lossless, alpha and animation, with
/// partial images while the bytes arrive.
///
/// Still images decode straight into the output buffer, using libwebp's own scaler for
/// thumbnails; animations are composed by libwebp's animation decoder into full-canvas
/// RGBA8 frames. Sizes are checked against `ImageDecodeOptions` before any pixel
/// memory is allocated. A frame duration of 10 ms or less shows for 100 ms, as in
/// browsers.
public struct WebPCoder: ProgressiveImageCoder, AnimatedImageCoder {
    /// Creates the coder.
    public init() {}

    /// The formats this coder decodes: WebP.
    public var decodableFormats: Set<ImageFormat> { [.webp] }

    /// Whether `data` starts with a `RIFF….WEBP` signature.
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat(sniffing: data) == .webp
    }

    /// Decodes a still WebP, or every frame (or only the first) of an animated one.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws(ImageError) -> Image {
        guard !data.isEmpty else { throw ImageError(.emptyData, "there are no bytes to decode") }
        guard canDecode(data) else { throw ImageError(.badImageData, "the data is not a WebP") }
        return try data.withUnsafeBytes { bytes in
            Result { () throws(ImageError) in
                let features = try WebPCoder.features(of: bytes)
                if features.has_animation != 0 {
                    return try decodeAnimation(bytes, features: features, options: options)
                }
                return try decodeStill(bytes, features: features, options: options)
            }
        }.get()
    }

    /// Reads the canvas size, loop count and frame durations without decoding pixels.
    public func animationInfo(of data: Data) throws(ImageError) -> AnimationInfo {
        guard canDecode(data) else { throw ImageError(.badImageData, "the data is not a WebP") }
        return try data.withUnsafeBytes { bytes in
            Result { () throws(ImageError) in try readAnimationInfo(bytes) }
        }.get()
    }

    /// Whether `data` begins like a WebP; partial images come from its first bytes on.
    public func canDecodeIncrementally(_ data: Data) -> Bool {
        canDecode(data)
    }

    /// Decodes the rows of a still WebP that `data` already holds; rows not yet decoded
    /// are transparent. An animation gives `nil` until it is complete, then its first frame.
    public func decodeIncrementally(_ data: Data, isComplete: Bool, options: ImageDecodeOptions) throws(ImageError) -> Image? {
        guard canDecode(data) else { return nil }
        return try data.withUnsafeBytes { bytes in
            Result { () throws(ImageError) in
                try decodePartially(bytes, isComplete: isComplete, options: options)
            }
        }.get()
    }

    /// A decoder that composes the frames of the animated WebP in `bytes` one at a time;
    /// `nil` for a still WebP.
    public func makeFrameDecoder(for bytes: PinnedBytes) throws(ImageError) -> (any AnimatedFrameDecoder)? {
        try WebPFrameDecoder(bytes: bytes)
    }

    /// Whether `format` is WebP.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .webp
    }

    /// Encodes `image` as WebP: lossy at `ImageEncodeOptions/quality`, or lossless with
    /// `ImageEncodeOptions/lossless`; an animation keeps its durations and loop count.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(ImageError) -> Data {
        guard canEncode(to: format) else {
            throw ImageError(.unsupportedFormat, "the WebP coder cannot write \(format.rawValue)")
        }
        let image = try options.prepared(image, for: format)
        return try encodeImage(image, options: options)
    }
}
