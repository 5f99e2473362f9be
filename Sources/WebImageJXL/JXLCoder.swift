#if JXL
// Compiled only with the `JXL` package trait, so that a build without it never imports
// CJXL and needs no libjxl headers.
import CJXL
import Foundation
import WebImageCore

/// Decodes and encodes JPEG XL with libjxl 0.7: still images and animations (frames
/// composed onto the canvas, with their durations and loop count), alpha, and more than
/// 8 bits per sample kept as `PixelFormat/rgba16`; the orientation in the header is
/// applied.
///
/// As a `ProgressiveImageCoder` it shows what the bytes received so far hold of the
/// first frame (libjxl's `JxlDecoderFlushImage`), so a progressive file sharpens as it
/// arrives. Thumbnails decode at full size and are resampled (libjxl has no reduced
/// decode). The header's size is checked against the options before any pixel buffer
/// exists, and libjxl's managed allocations are capped at
/// `ImageDecodeOptions.maxTotalBytes`.
///
/// Encoding writes every frame (or the first with `ImageEncodeOptions.firstFrameOnly`):
/// lossy at a Butteraugli distance from `ImageEncodeOptions.quality` (the mapping
/// `cjxl` uses for its quality), or lossless with `ImageEncodeOptions.lossless`; 8- or
/// 16-bit as the image is, with alpha when it has any.
public struct JXLCoder: AnimatedImageCoder, ProgressiveImageCoder {
    /// libjxl's effort when the coder is made with none: 1 (fastest) to 9.
    public static let defaultEncodingEffort = 7

    /// The encoder effort, from 1 (fastest) to 9 (slowest, smallest files).
    public let encodingEffort: Int

    /// Creates the coder; `encodingEffort` is clamped to 1…9.
    public init(encodingEffort: Int = JXLCoder.defaultEncodingEffort) {
        self.encodingEffort = min(max(encodingEffort, 1), 9)
    }

    /// The formats this coder decodes: JPEG XL.
    public var decodableFormats: Set<ImageFormat> { [.jxl] }

    /// Whether `data` starts with a JPEG XL codestream or container signature.
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat(sniffing: data) == .jxl
    }

    /// The displayed size the header declares.
    public func pixelSize(of data: Data) throws(ImageError) -> PixelSize? {
        try withReader(data, options: ImageDecodeOptions()) { reader throws(ImageError) in try reader.readHeader().size }
    }

    /// Decodes every frame (or the first) at the options' target size.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws(ImageError) -> Image {
        try withReader(data, options: options) { reader throws(ImageError) in
            guard let image = try reader.readImage() else { throw ImageError(.badImageData, "the JPEG XL stream has no frame") }
            return image
        }
    }

    /// The animation's frame count, durations, loop count and canvas, from the frame
    /// headers.
    public func animationInfo(of data: Data) throws(ImageError) -> AnimationInfo {
        try withReader(data, options: ImageDecodeOptions()) { reader throws(ImageError) in
            let header = try reader.readHeader()
            return AnimationInfo(canvasSize: header.size, loopCount: header.loopCount, frameDurations: header.frameDurations)
        }
    }

    /// Whether `data` starts like JPEG XL (a partial signature is enough to wait for more).
    public func canDecodeIncrementally(_ data: Data) -> Bool {
        canDecode(data)
    }

    /// What the bytes so far show of the first frame; `nil` before any pixel is decodable.
    public func decodeIncrementally(_ data: Data, isComplete: Bool, options: ImageDecodeOptions) throws(ImageError) -> Image? {
        var firstFrame = options
        firstFrame.firstFrameOnly = true
        return try withReader(data, options: firstFrame) { reader throws(ImageError) in try reader.readImage(isComplete: isComplete) }
    }

    /// Whether `format` is JPEG XL.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .jxl
    }

    /// Encodes `image` as JPEG XL, a still image or an animation.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(ImageError) -> Data {
        guard canEncode(to: format) else {
            throw ImageError(.unsupportedFormat, "the JPEG XL coder cannot write \(format.rawValue)")
        }
        let image = try options.prepared(image, for: format)
        return try JXLWriter(image: image, options: options, effort: encodingEffort).write()
    }

    private func withReader<Result>(
        _ data: Data, options: ImageDecodeOptions, _ body: (JXLReader) throws(ImageError) -> Result
    ) throws(ImageError) -> Result {
        guard !data.isEmpty else { throw ImageError(.emptyData, "there are no bytes to decode") }
        guard canDecode(data) else { throw ImageError(.badImageData, "the data is not JPEG XL") }
        return try data.withImageBytes { bytes throws(ImageError) in try body(JXLReader(bytes: bytes, options: options)) }
    }
}
#endif
