#if AVIF
// Compiled only with the `AVIF` package trait, so that a build without it never imports
// CAVIF and needs no libavif headers.
import CAVIF
import Foundation
import WebImageCore

/// Decodes and encodes AVIF with libavif (dav1d decodes, aom encodes on Debian): still
/// images, grids, image sequences (`avis`) with their frame durations, alpha, and 10- or
/// 12-bit files kept as `PixelFormat/rgba16`.
///
/// The `clap` crop and the `irot`/`imir` turn are applied, so frames come out as the file
/// displays. Thumbnails decode at full size and are resampled (libavif 0.11 has no reduced
/// decode). libavif's pixel, dimension and frame-count limits are set from the options
/// before the container is parsed, and the parsed size is checked against them before
/// any AV1 data is decoded.
///
/// libavif 0.11 does not read an `avis` file's loop count (its edit list), so sequences
/// report 0, "forever". A generic HEIF file (`mif1`) that lists the `avif` brand is
/// decoded here, not by a HEIF coder.
///
/// Encoding writes every frame (or the first with `ImageEncodeOptions.firstFrameOnly`):
/// 8-bit for `PixelFormat/rgba8` images and 10-bit for `PixelFormat/rgba16`, 4:2:0 at a
/// quantizer from `ImageEncodeOptions.quality`, or 4:4:4 with the identity matrix at
/// quantizer 0 with `ImageEncodeOptions.lossless` (exact for 8-bit images). Alpha is
/// written when the image has any.
public struct AVIFCoder: AnimatedImageCoder {
    /// libavif's speed when the coder is made with none: 0 (slowest, smallest) to 10.
    public static let defaultEncodingSpeed = 8

    /// The encoder speed, from 0 (slowest, smallest files) to 10 (fastest).
    public let encodingSpeed: Int
    /// The coder that gets a try when libavif refuses a file (libheif, which
    /// decodes AV1 too, in the built-in set); `nil` for none.
    public let fallback: (any ImageCoder)?

    /// Creates the coder; `encodingSpeed` is clamped to 0…10.
    public init(encodingSpeed: Int = AVIFCoder.defaultEncodingSpeed, fallback: (any ImageCoder)? = nil) {
        self.encodingSpeed = min(max(encodingSpeed, 0), 10)
        self.fallback = fallback
    }

    /// The formats this coder decodes: AVIF.
    public var decodableFormats: Set<ImageFormat> { [.avif] }

    /// Whether `data` is an ISO base media file with the `avif` or `avis` brand.
    public func canDecode(_ data: Data) -> Bool {
        ISOMediaBrands(data)?.declaresAVIF ?? false
    }

    /// The displayed size the container declares, read by parsing it without decoding AV1.
    public func pixelSize(of data: Data) throws(ImageError) -> PixelSize? {
        var options = ImageDecodeOptions()
        options.maxPixelCount = Int(UInt32.max)
        return try withSession(data, options: options) { session throws(ImageError) in session.canvasSize }
    }

    /// Decodes the image, or every frame of a sequence, at the options' target size; when
    /// libavif refuses the data (as bad, or as needing what it lacks, such as a colour
    /// matrix its RGB conversion does not handle), the ``fallback`` coder's image if it reads it.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws(ImageError) -> Image {
        do {
            return try decodeWithLibavif(data, options: options)
        } catch {
            guard error.code == .badImageData || error.code == .unsupportedFormat, let fallback, fallback.canDecode(data),
                let image = try? fallback.decode(data, options: options)
            else { throw error }
            return image
        }
    }

    private func decodeWithLibavif(_ data: Data, options: ImageDecodeOptions) throws(ImageError) -> Image {
        try withSession(data, options: options) { session throws(ImageError) in
            let count = options.firstFrameOnly ? 1 : session.frameCount
            let bytesPerPixel = session.pixelFormat.bytesPerPixel
            if count > 1 {
                try options.checkAnimationWork(canvas: session.canvasSize, frameCount: count)
            }
            let target = options.targetSize(forSource: session.canvasSize, frameCount: count, bytesPerPixel: bytesPerPixel)
            try options.checkAllocation(session.canvasSize, bytesPerPixel: bytesPerPixel)
            try options.checkAllocation(target, frameCount: count, bytesPerPixel: bytesPerPixel)
            var frames: [ImageFrame] = []
            frames.reserveCapacity(count)
            for index in 0..<count {
                let bitmap = try session.decodeFrame(at: index, options: options)
                let duration = count > 1 ? session.duration(ofFrame: index) : 0
                try frames.append(ImageFrame(bitmap: bitmap.size == target ? bitmap : bitmap.resized(to: target), duration: duration))
            }
            return Image(
                frames: frames, scale: options.scaleFactor ?? 1, format: .avif, hasAlpha: session.hasAlpha ? nil : false,
                colorProfile: session.colorProfile)
        }
    }

    /// The sequence's frame count, frame durations and displayed size, from the container.
    public func animationInfo(of data: Data) throws(ImageError) -> AnimationInfo {
        var options = ImageDecodeOptions()
        options.maxPixelCount = Int(UInt32.max)
        return try withSession(data, options: options) { session throws(ImageError) in
            let durations = (0..<session.frameCount).map { session.duration(ofFrame: $0) }
            return AnimationInfo(canvasSize: session.canvasSize, loopCount: 0, frameDurations: durations)
        }
    }

    /// A decoder that decodes the frames of a sequence on demand; `nil` for a still image.
    public func makeFrameDecoder(for bytes: PinnedBytes) throws(ImageError) -> (any AnimatedFrameDecoder)? {
        let options = ImageDecodeOptions()
        let session = try AVIFDecoderSession(bytes: bytes.bytes, owner: bytes, options: options)
        guard session.frameCount > 1 else { return nil }
        return AVIFFrameDecoder(session: session, options: options)
    }

    /// Whether `format` is AVIF.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .avif
    }

    /// Encodes `image` as AVIF, a still image or a sequence.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(ImageError) -> Data {
        guard canEncode(to: format) else {
            throw ImageError(.unsupportedFormat, "the AVIF coder cannot write \(format.rawValue)")
        }
        let image = try options.prepared(image, for: format)
        return try AVIFWriter(image: image, options: options, speed: encodingSpeed).write()
    }

    private func withSession<Result>(
        _ data: Data, options: ImageDecodeOptions, _ body: (AVIFDecoderSession) throws(ImageError) -> Result
    ) throws(ImageError) -> Result {
        guard !data.isEmpty else { throw ImageError(.emptyData, "there are no bytes to decode") }
        guard canDecode(data) else { throw ImageError(.badImageData, "the data is not an AVIF file") }
        return try data.withImageBytes { bytes throws(ImageError) in
            try body(AVIFDecoderSession(bytes: bytes, options: options))
        }
    }
}
#endif
