import Foundation
import WebImageCore

/// Decodes and encodes Windows and OS/2 bitmaps (BMP), written in Swift.
///
/// Decoding reads every header version (OS/2 1.x and 2.x, Windows 3, the Adobe
/// variants, 4 and 5), 1-, 2-, 4- and 8-bit palettes, 16- and 32-bit pixels with or
/// without bit fields (alpha included), 24-bit pixels, RLE4, RLE8 and OS/2's RLE24, stored
/// bottom-up or top-down; of an OS/2 bitmap array (`BA`), the first bitmap, as libvips
/// and ImageMagick do. It follows BMP Suite's verdicts: the files it calls bad are
/// refused with `ImageError.Code.badImageData`, and the size is checked against
/// `ImageDecodeOptions` before any pixel memory is allocated. Thumbnails are resampled
/// from the full image. Encoding writes 24-bit pixels, or 32-bit with an alpha mask
/// (a version 4 header) when the image has alpha.
public struct BMPCoder: ImageCoder {
    /// Creates the coder.
    public init() {}

    /// The formats this coder decodes: BMP.
    public var decodableFormats: Set<ImageFormat> { [.bmp] }

    /// Whether `data` starts with the `BM` signature of a BMP file, or with an OS/2 bitmap
    /// array (`BA`) whose first entry is one.
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat(sniffing: data) == .bmp
    }

    /// Decodes a BMP into an RGBA8 image, resampled to the options' target size.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws(ImageError) -> Image {
        guard !data.isEmpty else { throw ImageError(.emptyData, "there are no bytes to decode") }
        guard canDecode(data) else { throw ImageError(.badImageData, "the data is not a BMP") }
        let bitmap = try data.withUnsafeBytes { bytes in
            Result { () throws(ImageError) in try BMPCoder.decodeFile(LittleEndianReader(bytes: bytes), options: options) }
        }.get()
        let target = options.targetSize(forSource: bitmap.size)
        return try Image(bitmap: bitmap.resized(to: target), scale: options.scaleFactor ?? 1, format: .bmp)
    }

    /// Whether `format` is BMP.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .bmp
    }

    /// Encodes the first frame of `image` as an uncompressed BMP.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(ImageError) -> Data {
        guard canEncode(to: format) else {
            throw ImageError(.unsupportedFormat, "the BMP coder cannot write \(format.rawValue)")
        }
        let image = try options.prepared(image, for: format)
        return BMPWriter(bitmap: try image.bitmap.convertedToRGBA8(), includesAlpha: image.hasAlpha).data()
    }

    /// Where the bitmap file header (`BM`) starts: after the 14-byte array header of an
    /// OS/2 bitmap array (`BA`), whose offsets still count from the start of the data;
    /// else at the start.
    static func fileHeaderStart(_ reader: LittleEndianReader) -> Int {
        reader.uint16(at: 0) == 0x4142 ? 14 : 0
    }

    /// Reads the file header and info header, checks them, and decodes the pixels.
    static func decodeFile(_ reader: LittleEndianReader, options: ImageDecodeOptions) throws(ImageError) -> Bitmap {
        let start = fileHeaderStart(reader)
        guard let fileSize = reader.uint32(at: start + 2), let pixelOffset = reader.uint32(at: start + 10) else {
            throw ImageError(.badImageData, "the BMP file header is truncated")
        }
        let header = try BMPHeader(reading: reader, at: start + 14, pixelOffset: Int(pixelOffset))
        try options.checkAllocation(header.size)
        try checkDeclaredSizes(header, fileSize: Int(fileSize), pixelOffset: Int(pixelOffset), byteCount: reader.bytes.count)
        // An offset that points into the headers or the palette is wrong; the pixels
        // then start where the palette ends, as in files whose offset was never filled in.
        let pixelStart = Int(pixelOffset) < header.paletteEnd ? header.paletteEnd : Int(pixelOffset)
        return try BMPPixelDecoder(header: header, reader: reader, pixelOffset: pixelStart).decode().bitmap
    }

    /// Refuses a file whose header claims a file or pixel-data size far larger than the
    /// bytes it has (BMP Suite's `badfilesize` and `badbitssize`). A few bytes' difference
    /// is common in real files and allowed.
    private static func checkDeclaredSizes(_ header: BMPHeader, fileSize: Int, pixelOffset: Int, byteCount: Int) throws(ImageError) {
        let slack = 1 << 16
        guard fileSize <= byteCount + slack else {
            throw ImageError(.badImageData, "the BMP claims \(fileSize) bytes but has \(byteCount)")
        }
        guard pixelOffset + header.imageSize <= byteCount + slack else {
            throw ImageError(.badImageData, "the BMP claims \(header.imageSize) bytes of pixels but has \(byteCount) in all")
        }
    }
}
