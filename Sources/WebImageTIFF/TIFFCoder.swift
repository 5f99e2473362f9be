#if TIFF
// Compiled only with the `TIFF` package trait, so that a build without it never
// imports CTIFF and needs no libtiff headers.
import CTIFF
import Foundation
import WebImageCore

/// Decodes and encodes TIFF with libtiff: strips and tiles, contiguous or planar, 1- to
/// 16-bit samples (and, for grey, RGB and CMYK, 32-bit integers and 32- and 64-bit
/// floats), grey, palette, RGB, CMYK, YCbCr and CIELab, with every compression Debian's libtiff reads
/// (none, LZW, Deflate, PackBits, JPEG, CCITT G3/G4, ZSTD, WebP, LZMA…).
///
/// Each page (image file directory) becomes a frame, or only the first with
/// `ImageDecodeOptions.firstFrameOnly`; pages whose size differs from the first page's
/// are resampled to it, since an `Image`'s frames share one size. The TIFF orientation
/// tag is applied. Bytes are read in place through `TIFFClientOpenExt`; libtiff's errors
/// become `ImageError` messages and its warnings are dropped, so nothing is printed and
/// nothing exits. Sizes are checked against the options before any pixel memory is
/// allocated, and libtiff's own allocations are capped at `ImageDecodeOptions.maxTotalBytes`.
///
/// Encoding writes every frame (or the first with `ImageEncodeOptions.firstFrameOnly`)
/// as a page: 8- or 16-bit RGB, or RGBA when the image has alpha, Deflate-compressed with
/// the horizontal predictor.
public struct TIFFCoder: ImageCoder {
    /// Creates the coder.
    public init() {}

    /// The formats this coder decodes: TIFF.
    public var decodableFormats: Set<ImageFormat> { [.tiff] }

    /// Whether `data` starts with a little- or big-endian TIFF signature.
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat(sniffing: data) == .tiff
    }

    /// Decodes the pages of a TIFF into RGBA8 frames at the options' target size.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws(ImageError) -> Image {
        guard !data.isEmpty else { throw ImageError(.emptyData, "there are no bytes to decode") }
        guard canDecode(data) else { throw ImageError(.badImageData, "the data is not a TIFF") }
        return try data.withUnsafeBytes { bytes in
            Result { () throws(ImageError) in
                let stream = TIFFMemoryStream(reading: bytes)
                return try TIFFPageReader(stream: stream, options: options).readImage()
            }
        }.get()
    }

    /// Whether `format` is TIFF.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .tiff
    }

    /// Encodes `image` as a TIFF, one page per frame.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(ImageError) -> Data {
        guard canEncode(to: format) else {
            throw ImageError(.unsupportedFormat, "the TIFF coder cannot write \(format.rawValue)")
        }
        let image = try options.prepared(image, for: format)
        return try TIFFPageWriter(image: image, options: options).write()
    }
}
#endif
