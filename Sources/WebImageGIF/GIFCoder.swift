import Foundation
import WebImageCore

/// Decodes and encodes GIF with giflib: still images and animations, with per-frame
/// delays, disposal, transparency and the NETSCAPE loop count.
///
/// Decoding walks the file record by record and checks the canvas and every frame
/// against `ImageDecodeOptions` before allocating; frames come out composed onto the
/// full canvas as RGBA8. A file that breaks off after at least one frame yields the
/// frames decoded so far, as browsers show them. Encoding writes an exact palette for
/// frames of up to 256 colours and a median-cut palette otherwise.
public struct GIFCoder: AnimatedImageCoder {
    /// Creates the coder.
    public init() {}

    /// The formats this coder decodes: GIF.
    public var decodableFormats: Set<ImageFormat> { [.gif] }

    /// Whether `data` starts with a GIF signature.
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat(sniffing: data) == .gif
    }

    /// Decodes every frame (or only the first) of a GIF.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws(ImageError) -> Image {
        guard !data.isEmpty else { throw ImageError(.emptyData, "there are no bytes to decode") }
        guard canDecode(data) else { throw ImageError(.badImageData, "the data is not a GIF") }
        return try data.withUnsafeBytes { bytes in
            Result { () throws(ImageError) in try decodeImage(bytes, options: options) }
        }.get()
    }

    /// Reads the canvas size, loop count and frame delays without decoding pixels.
    public func animationInfo(of data: Data) throws(ImageError) -> AnimationInfo {
        guard canDecode(data) else { throw ImageError(.badImageData, "the data is not a GIF") }
        return try data.withUnsafeBytes { bytes in
            Result { () throws(ImageError) in try readAnimationInfo(bytes) }
        }.get()
    }

    /// A decoder that composes the frames of the GIF in `bytes` one at a time.
    public func makeFrameDecoder(for bytes: PinnedBytes) throws(ImageError) -> (any AnimatedFrameDecoder)? {
        try GIFFrameDecoder(bytes: bytes)
    }

    /// The frames of a GIF still downloading whose image data has wholly arrived: a frame
    /// counts once its image data's block terminator is in `data`. The frame decoder reads
    /// `data` as it is, never past its end; the animation is complete once the trailer has
    /// arrived.
    ///
    /// - Returns: `nil` before the first frame is complete, and for bytes giflib cannot read
    ///   (which, cut short, look the same as corrupt ones).
    public func animationPrefix(of data: Data) throws(ImageError) -> AnimationPrefix? {
        guard canDecode(data) else { return nil }
        guard let walk = data.withUnsafeBytes({ bytes in try? walkFrames(bytes) }) else { return nil }
        var info = walk.info
        if walk.reachedTrailer, info.frameCount == 1 { info.frameDurations[0] = 0 }
        return AnimationPrefix(info: info, bytes: PinnedBytes(data), isComplete: walk.reachedTrailer)
    }

    /// Whether `format` is GIF.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .gif
    }

    /// Encodes `image` as a GIF: every frame, or only the first with
    /// `ImageEncodeOptions/firstFrameOnly`.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(ImageError) -> Data {
        guard canEncode(to: format) else {
            throw ImageError(.unsupportedFormat, "the GIF coder cannot write \(format.rawValue)")
        }
        let image = try options.prepared(image, for: format)
        return try encodeImage(image, options: options)
    }
}
