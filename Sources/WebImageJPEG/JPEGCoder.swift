import CJPEG
import Foundation
import WebImageCore

/// Decodes and encodes JPEG with TurboJPEG (libjpeg-turbo).
///
/// Decoding produces one upright ``PixelFormat/rgba8`` frame: the EXIF orientation (or,
/// without one, the XMP `tiff:Orientation`) is applied, grayscale is expanded to RGB and
/// CMYK/YCCK is converted to RGB. Thumbnails and ``ImageDecodeOptions/scaleDownLimitBytes``
/// decode at the smallest of TurboJPEG's DCT scaling factors that still covers the target,
/// then resample to the exact target, so a thumbnail of a picture too large to decode
/// whole still works. 12-bit and 16-bit JPEGs are refused as unsupported.
///
/// Truncated data: ``decode(_:options:)`` refuses it with ``ImageError/Code/badImageData``
/// ("truncated"), while ``decodeIncrementally(_:isComplete:options:)`` returns what the
/// bytes so far show (the top rows of a baseline JPEG, a coarse pass of a progressive one).
/// Other warnings TurboJPEG gives about damaged but complete data keep the picture.
///
/// Encoding writes baseline JPEG at `quality × 100` with 4:2:0 chroma subsampling, or
/// 4:4:4 at quality 0.9 and above; transparent pixels are composited over white.
/// The coder keeps no state: each call makes its own TurboJPEG instance.
public struct JPEGCoder: ProgressiveImageCoder {
    /// The largest width or height libjpeg accepts.
    private static let maximumDimension = 65500

    /// Creates the coder.
    public init() {}

    /// The formats this coder decodes: JPEG.
    public var decodableFormats: Set<ImageFormat> { [.jpeg] }

    /// Whether `data` starts with the JPEG signature.
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat(sniffing: data) == .jpeg
    }

    /// Decodes the whole JPEG in `data` into an upright image.
    ///
    /// - Throws: ``ImageError/Code/emptyData``, ``ImageError/Code/badImageData`` for
    ///   corrupt or truncated data, ``ImageError/Code/unsupportedFormat`` for 12-bit or
    ///   16-bit samples, ``ImageError/Code/imageTooLarge`` past the options' limits.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws(ImageError) -> Image {
        guard !data.isEmpty else { throw ImageError(.emptyData, "the JPEG data is empty") }
        let result = data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            Result { () throws(ImageError) in try decodeImage(bytes, options: options, acceptingTruncation: false) }
        }
        return try result.get()
    }

    /// Whether `data` starts with the JPEG signature: every JPEG can be shown partially.
    public func canDecodeIncrementally(_ data: Data) -> Bool {
        canDecode(data)
    }

    /// Decodes the bytes of a JPEG received so far.
    ///
    /// Returns `nil` while the header (up to the first scan) is incomplete, and also while
    /// TurboJPEG fails on the data in a way more bytes may cure; once `isComplete`, this is
    /// ``decode(_:options:)``.
    ///
    /// - Throws: ``ImageError/Code/imageTooLarge`` and ``ImageError/Code/unsupportedFormat``
    ///   as soon as the header shows them, and every error of a complete decode.
    public func decodeIncrementally(_ data: Data, isComplete: Bool, options: ImageDecodeOptions) throws(ImageError) -> Image? {
        if isComplete { return try decode(data, options: options) }
        let result = data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            Result { () throws(ImageError) -> Image? in
                do throws(ImageError) {
                    return try decodeImage(bytes, options: options, acceptingTruncation: true)
                } catch {
                    guard error.code == .badImageData || error.code == .emptyData else { throw error }
                    return nil
                }
            }
        }
        return try result.get()
    }

    /// Whether `format` is JPEG.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .jpeg
    }

    /// Encodes the first frame of `image` as JPEG.
    ///
    /// - Throws: ``ImageError/Code/unsupportedFormat`` for any other format,
    ///   ``ImageError/Code/encodingFailed`` when TurboJPEG refuses the image.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(ImageError) -> Data {
        guard format == .jpeg else {
            throw ImageError(.unsupportedFormat, "the JPEG coder cannot write \(format.rawValue)")
        }
        let bitmap = image.bitmap.convertedToRGBA8()
        let pixels = image.hasAlpha ? Self.compositedOverWhite(bitmap.pixels) : bitmap.pixels
        let quality = min(max(Int((options.quality * 100).rounded()), 1), 100)
        let compressor = try JPEGCompressor()
        return try compressor.compress(
            rgba: pixels, size: bitmap.size, quality: quality,
            subsampling: options.quality >= 0.9 ? TJSAMP_444 : TJSAMP_420
        )
    }

    /// Decodes one JPEG: header, limits, scaled decompression, colour, orientation, size.
    private func decodeImage(
        _ jpeg: UnsafeRawBufferPointer,
        options: ImageDecodeOptions,
        acceptingTruncation: Bool
    ) throws(ImageError) -> Image {
        guard jpeg.count > 0 else { throw ImageError(.emptyData, "the JPEG data is empty") }
        let metadata = JPEGMetadata(reading: jpeg)
        if let precision = metadata.precision, precision != 8 {
            throw ImageError(.unsupportedFormat, "\(precision)-bit JPEG samples are not supported, only 8-bit")
        }
        if let declared = metadata.frameSize, max(declared.width, declared.height) > Self.maximumDimension {
            throw ImageError(
                .imageTooLarge,
                "the JPEG declares \(declared), over libjpeg's limit of \(Self.maximumDimension) pixels a side"
            )
        }
        let decompressor = try JPEGDecompressor()
        let header = try decompressor.readHeader(jpeg)
        let orientation = metadata.orientation
        let swaps = orientation.swapsWidthAndHeight
        let displayedSize = swaps ? header.size.transposed : header.size
        let target = options.targetSize(forSource: displayedSize, frameCount: 1)
        let scale = target == displayedSize
            ? JPEGScale.one
            : JPEGScale.smallest(covering: swaps ? target.transposed : target, from: header.size)
        let decodedSize = scale.scaled(header.size)
        try options.checkAllocation(decodedSize)

        var output = try decompressor.decompress(
            jpeg, size: decodedSize, pixelFormat: header.isCMYK ? TJPF_CMYK : TJPF_RGBA
        )
        if let warning = output.warning, !acceptingTruncation, Self.isTruncation(warning) {
            throw ImageError(.badImageData, "the JPEG data is truncated (\(warning))")
        }
        if header.isCMYK {
            Self.convertCMYKToRGBA(&output.pixels, inverted: metadata.hasAdobeMarker)
        }
        var bitmap = Bitmap(width: decodedSize.width, height: decodedSize.height, pixelFormat: .rgba8, pixels: output.pixels)
        if orientation != .up {
            bitmap = bitmap.oriented(orientation)
        }
        if bitmap.size != target {
            bitmap = bitmap.resized(to: target)
        }
        return Image(
            frames: [ImageFrame(bitmap: bitmap)], loopCount: 0, scale: options.scaleFactor ?? 1,
            orientation: orientation, format: .jpeg, hasAlpha: false
        )
    }

    /// Whether a TurboJPEG warning says the data ended early. libjpeg reports that as
    /// "Premature end of JPEG file", or "premature end of data segment" when the end cuts
    /// a scan; both messages are stable across libjpeg versions.
    private static func isTruncation(_ warning: String) -> Bool {
        warning.lowercased().contains("premature end")
    }

    /// RGBA pixels composited over an opaque white background.
    private static func compositedOverWhite(_ pixels: [UInt8]) -> [UInt8] {
        var result = pixels
        result.withUnsafeMutableBufferPointer { buffer in
            var index = 0
            while index + 3 < buffer.count {
                let alpha = UInt32(buffer[index + 3])
                if alpha != 255 {
                    let background = 255 * (255 - alpha)
                    for channel in index..<(index + 3) {
                        buffer[channel] = UInt8((UInt32(buffer[channel]) * alpha + background + 127) / 255)
                    }
                    buffer[index + 3] = 255
                }
                index += 4
            }
        }
        return result
    }
}
