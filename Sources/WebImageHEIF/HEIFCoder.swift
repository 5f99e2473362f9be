#if HEIF
// Compiled only with the `HEIF` package trait, so that a build without it never imports
// CHEIF and needs no libheif headers.
import CHEIF
import Foundation
import WebImageCore

/// Decodes HEIC and HEIF with libheif 1.15 (HEVC through libde265, AV1 through dav1d or
/// aom, as Debian links it) and encodes HEIC where libheif has an HEVC encoder (x265 on
/// Debian; ``canEncode(to:)`` asks libheif at run time).
///
/// The primary image is decoded: grids are assembled, and the `clap` crop and `irot`/
/// `imir` turn are applied by libheif. Alpha is kept; 10- and 12-bit images come out as
/// `PixelFormat/rgba16` scaled to the full 16-bit range. A file's other top-level
/// images (thumbnails, the second view of a stereo pair, depth maps) are not frames:
/// libheif 1.15 has no API for image sequences (`msf1` tracks), so a sequence decodes
/// as its primary still image, when it has one. Thumbnails decode at full size and are
/// resampled.
///
/// libheif's width and height limit is set before the container is parsed, and the
/// declared size is checked against the options' pixel and byte limits before decoding.
/// A HEIF file with the `avif` brand is left to the AVIF coder, unless the coder is
/// made with `acceptsAVIF` (the AVIF coder's fallback for files libavif refuses).
///
/// Encoding writes the first frame as HEIC: 8-bit, or 10-bit for `PixelFormat/rgba16`,
/// at `ImageEncodeOptions.quality` (libheif's 0–100 scale), or lossless.
public struct HEIFCoder: ImageCoder {
    /// Whether the coder also takes files with the `avif` brand (when libheif has an AV1 decoder).
    public let acceptsAVIF: Bool

    /// Creates the coder; with `acceptsAVIF`, it decodes AVIF files too, as a fallback for
    /// the files libavif refuses.
    public init(acceptsAVIF: Bool = false) {
        self.acceptsAVIF = acceptsAVIF
    }

    /// The formats this coder decodes: HEIC and HEIF.
    public var decodableFormats: Set<ImageFormat> { [.heic, .heif] }

    /// Whether `data` is a HEIC or HEIF file that does not declare the AVIF brands (or, with
    /// ``acceptsAVIF``, one that does).
    public func canDecode(_ data: Data) -> Bool {
        let format = ImageFormat(sniffing: data)
        let isAVIF = ISOMediaBrands(data)?.declaresAVIF ?? false
        if isAVIF && acceptsAVIF {
            return heif_have_decoder_for_format(heif_compression_AV1) != 0
        }
        guard format == .heic || format == .heif else { return false }
        return !isAVIF
    }

    /// The displayed size of the primary image, from the container.
    public func pixelSize(of data: Data) throws(ImageError) -> PixelSize? {
        var options = ImageDecodeOptions()
        options.maxPixelCount = Int(Int32.max)
        return try withReader(data, options: options) { reader throws(ImageError) in reader.size }
    }

    /// Decodes the primary image at the options' target size.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws(ImageError) -> Image {
        try withReader(data, options: options) { reader throws(ImageError) in
            let bitmap = try reader.decode(options: options)
            let target = options.targetSize(forSource: bitmap.size, bytesPerPixel: bitmap.pixelFormat.bytesPerPixel)
            let sniffed = ImageFormat(sniffing: data)
            let format: ImageFormat =
                ISOMediaBrands(data)?.declaresAVIF ?? false ? .avif : sniffed == .heif ? .heif : .heic
            return try Image(
                bitmap: bitmap.size == target ? bitmap : bitmap.resized(to: target), scale: options.scaleFactor ?? 1, format: format,
                hasAlpha: reader.hasAlpha ? nil : false, colorProfile: reader.colorProfile)
        }
    }

    /// Whether `format` is HEIC and this libheif has an HEVC encoder.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .heic && HEIFWriter.canEncode
    }

    /// Encodes the first frame of `image` as HEIC.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(ImageError) -> Data {
        guard canEncode(to: format) else {
            throw ImageError(.unsupportedFormat, "the HEIF coder cannot write \(format.rawValue) with this libheif")
        }
        let image = try options.prepared(image, for: format)
        return try HEIFWriter(image: image, options: options).write()
    }

    private func withReader<Result>(
        _ data: Data, options: ImageDecodeOptions, _ body: (HEIFReader) throws(ImageError) -> Result
    ) throws(ImageError) -> Result {
        guard !data.isEmpty else { throw ImageError(.emptyData, "there are no bytes to decode") }
        guard canDecode(data) else { throw ImageError(.badImageData, "the data is not HEIC or HEIF") }
        return try data.withImageBytes { bytes throws(ImageError) in try body(HEIFReader(bytes: bytes, options: options)) }
    }
}
#endif
