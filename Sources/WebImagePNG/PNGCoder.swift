import Foundation
import WebImageCore

/// Decodes PNG with libspng, including animated PNG (APNG), which this coder assembles
/// itself over libspng frame by frame; encodes PNG and APNG itself, each row filtered by
/// the smallest-sum heuristic and the image compressed whole by libdeflate.
///
/// Decoding keeps the stored sample values: no gamma, colour-profile or sBIT
/// correction is applied. 8-bit sources (and palette, grey and low-depth ones) become
/// `PixelFormat/rgba8`; 16-bit sources keep their precision as `PixelFormat/rgba16`.
/// tRNS transparency is applied. `Image/hasAlpha` is `true` when the colour type
/// carries alpha or a tRNS chunk is present (for an animation: when any frame shows a
/// pixel that is not opaque). CRC errors are errors. An ancillary chunk (text, ICC
/// profile) larger than `ImageDecodeOptions/maxChunkBytes` once decompressed refuses
/// the image with `ImageError/Code/imageTooLarge`: libspng 0.7 cannot skip it.
///
/// A still PNG asked for at a smaller size (`ImageDecodeOptions/thumbnailPixelSize`,
/// `ImageDecodeOptions/scaleDownLimitBytes`) is decoded row by row straight into the
/// resampler, which holds the few source rows its filter spans rather than the whole
/// decoded picture; the pixels are those of decoding it whole and resizing it. Interlaced
/// PNGs are decoded whole first.
///
/// An APNG whose animation chunks are broken (bad CRC, out-of-order sequence numbers,
/// frames outside the canvas, undecodable frame data) decodes as its still default
/// image instead of failing, as browsers do.
public struct PNGCoder: ProgressiveImageCoder, AnimatedImageCoder {
    /// Creates the coder.
    public init() {}

    /// The formats this coder decodes: PNG.
    public var decodableFormats: Set<ImageFormat> { [.png] }

    /// Whether `data` starts with the PNG signature.
    public func canDecode(_ data: Data) -> Bool {
        data.starts(with: PNGChunkReader.signature)
    }

    /// Decodes a PNG, or every frame of an APNG composed onto its canvas.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws(ImageError) -> Image {
        guard !data.isEmpty else { throw ImageError(.emptyData, "there are no PNG bytes to decode") }
        return try data.withImageBytes { stream throws(ImageError) in
            try PNGCoder.decodeImage(stream, options: options)
        }
    }

    /// Reads the frame count, loop count, frame durations and canvas size of an APNG from
    /// its acTL and fcTL chunks; a still PNG is one frame of duration 0 that plays once.
    public func animationInfo(of data: Data) throws(ImageError) -> AnimationInfo {
        try data.withImageBytes { stream throws(ImageError) in
            if let animation = try? APNGAnimation(parsing: stream) {
                return AnimationInfo(
                    canvasSize: animation.canvasSize,
                    loopCount: animation.loopCount,
                    frameDurations: animation.frames.map(\.control.duration)
                )
            }
            let context = try SPNGContext.decoder(for: stream, options: ImageDecodeOptions())
            let header = try context.header()
            let size = PixelSize(width: Int(header.width), height: Int(header.height))
            return AnimationInfo(canvasSize: size, loopCount: 0, frameDurations: [0])
        }
    }

    /// A decoder that composes the frames of the APNG in `bytes` one at a time; `nil` for a
    /// still PNG.
    public func makeFrameDecoder(for bytes: PinnedBytes) throws(ImageError) -> (any AnimatedFrameDecoder)? {
        try APNGFrameDecoder(bytes: bytes)
    }

    /// The frames of an APNG still downloading whose chunks have wholly arrived: a frame
    /// counts once the `fcTL` of the next one (or IEND) is in `data`, so all of its data
    /// chunks are. The frame decoder gets those bytes only, a file that ends after the
    /// last complete frame.
    ///
    /// - Returns: `nil` for a still PNG and before the first frame is complete.
    /// - Throws: `ImageError/Code/badImageData` when the animation chunks received are
    ///   malformed.
    public func animationPrefix(of data: Data) throws(ImageError) -> AnimationPrefix? {
        guard canDecode(data) else { return nil }
        let found = data.withUnsafeBytes { stream in APNGAnimation.completeFramesLength(in: stream) }
        guard let (length, isComplete) = found else { return nil }
        let bytes = PinnedBytes(data.prefix(length))
        guard let animation = try APNGAnimation(parsing: bytes.bytes) else { return nil }
        let info = AnimationInfo(
            canvasSize: animation.canvasSize,
            loopCount: animation.loopCount,
            frameDurations: animation.frames.map(\.control.duration)
        )
        return AnimationPrefix(info: info, bytes: bytes, isComplete: isComplete)
    }

    /// Whether this coder can write `format`: only `ImageFormat/png`.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .png
    }
}
