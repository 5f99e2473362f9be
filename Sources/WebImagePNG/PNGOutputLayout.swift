import CPNG
import WebImageCore

/// The libspng output format and flags for a PNG header: RGBA8 for every source of up to
/// 8 bits per sample, RGBA16 (host byte order) for 16-bit sources, tRNS applied, gamma not.
struct PNGOutputLayout {
    /// The pixel format of the decoded bitmap.
    let pixelFormat: PixelFormat
    /// The `spng_format` to decode to.
    let format: Int32
    /// The `spng_decode_flags` to decode with.
    let flags: Int32
    /// Whether the colour type itself carries alpha (grey + alpha, RGBA).
    let hasAlphaChannel: Bool

    /// The layout for an image with `header`.
    init(_ header: spng_ihdr) {
        let isWide = header.bit_depth == 16
        pixelFormat = isWide ? .rgba16 : .rgba8
        format = Int32(isWide ? SPNG_FMT_RGBA16.rawValue : SPNG_FMT_RGBA8.rawValue)
        flags = Int32(SPNG_DECODE_TRNS.rawValue)
        hasAlphaChannel =
            header.color_type == UInt8(SPNG_COLOR_TYPE_GRAYSCALE_ALPHA.rawValue)
            || header.color_type == UInt8(SPNG_COLOR_TYPE_TRUECOLOR_ALPHA.rawValue)
    }

    /// The bytes the decoded image takes, as libspng computes them, checked against `size`.
    func byteCount(in context: SPNGContext, size: PixelSize) throws(ImageError) -> Int {
        var byteCount = 0
        try context.check(spng_decoded_image_size(context.handle, format, &byteCount), "size the decoded image")
        guard byteCount == size.width * size.height * pixelFormat.bytesPerPixel else {
            throw ImageError(.badImageData, "libspng reports an unexpected decoded size for \(size)")
        }
        return byteCount
    }
}
