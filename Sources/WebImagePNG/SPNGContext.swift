import CPNG
import Foundation
import WebImageCore

/// One libspng context, freed when the wrapper is released.
///
/// Every decode and encode call makes its own context, so no state is ever shared
/// between threads. A decoder reads straight from the caller's buffer, which must stay
/// valid for the context's whole life.
final class SPNGContext {
    /// The raw context for calls this wrapper does not cover.
    let handle: OpaquePointer

    init(flags: Int32) throws(ImageError) {
        guard let handle = spng_ctx_new(flags) else {
            throw ImageError(.imageTooLarge, "libspng could not allocate a context")
        }
        self.handle = handle
    }

    deinit {
        spng_ctx_free(handle)
    }

    /// A decoder over `stream`, with the limits of `options` in force.
    static func decoder(for stream: UnsafeRawBufferPointer, options: ImageDecodeOptions) throws(ImageError) -> SPNGContext {
        let context = try limitedDecoder(options)
        try context.check(spng_set_png_buffer(context.handle, stream.baseAddress, stream.count), "read the data")
        return context
    }

    /// A decoder reading `file` from its current position through stdio's buffer, with the
    /// limits of `options` in force; the file must stay open for the context's whole life.
    static func decoder(reading file: UnsafeMutablePointer<FILE>, options: ImageDecodeOptions) throws(ImageError) -> SPNGContext {
        let context = try limitedDecoder(options)
        try context.check(spng_set_png_file(context.handle, file), "read the file")
        return context
    }

    /// A decoder with the limits of `options` in force and no source yet.
    private static func limitedDecoder(_ options: ImageDecodeOptions) throws(ImageError) -> SPNGContext {
        let context = try SPNGContext(flags: 0)
        let dimensionLimit = UInt32(clamping: min(max(1, options.maxPixelCount), Int(Int32.max)))
        let chunkLimit = max(0, options.maxChunkBytes)
        try context.check(spng_set_image_limits(context.handle, dimensionLimit, dimensionLimit), "set image limits")
        try context.check(spng_set_chunk_limits(context.handle, chunkLimit, chunkLimit), "set chunk limits")
        return context
    }

    /// The image header.
    func header() throws(ImageError) -> spng_ihdr {
        var header = spng_ihdr()
        try check(spng_get_ihdr(handle, &header), "read the PNG header")
        return header
    }

    /// Whether the image has a tRNS chunk; reads the chunks before the image data.
    ///
    /// - Throws: the error of any chunk read on the way (CRC, chunk limits).
    func hasTransparencyChunk() throws(ImageError) -> Bool {
        var transparency = spng_trns()
        let status = spng_get_trns(handle, &transparency)
        guard status != Int32(SPNG_ECHUNKAVAIL.rawValue) else { return false }
        try check(status, "read the chunks before the image data")
        return true
    }

    /// Reads the chunks after the image data, so that the CRC of the last IDAT chunk and
    /// of every later chunk is checked (libspng stops reading when the pixels are done).
    /// Data that simply ends before IEND is accepted.
    func checkTrailingChunks() throws(ImageError) {
        let status = spng_decode_chunks(handle)
        guard status != Int32(SPNG_IO_EOF.rawValue), status != Int32(SPNG_EOF.rawValue) else { return }
        try check(status, "read the chunks after the image data")
    }

    /// The ICC profile of an `iCCP` chunk, inflated as libspng reads it; `nil` without one.
    func colorProfile() -> ColorProfile? {
        var iccp = spng_iccp()
        guard spng_get_iccp(handle, &iccp) == 0, let bytes = iccp.profile, iccp.profile_len > 0 else { return nil }
        return ColorProfile(data: Data(bytes: bytes, count: iccp.profile_len))
    }

    /// Throws the error libspng's `status` stands for, when it is not success.
    func check(_ status: Int32, _ action: String, code: ImageError.Code = .badImageData) throws(ImageError) {
        guard status != 0 else { return }
        throw SPNGContext.error(status, action, code: code)
    }

    /// The error for libspng's `status` while doing `action`.
    static func error(_ status: Int32, _ action: String, code: ImageError.Code = .badImageData) -> ImageError {
        let reason = String(cString: spng_strerror(status))
        let tooLarge = [SPNG_EUSER_WIDTH, SPNG_EUSER_HEIGHT, SPNG_EMEM, SPNG_ECHUNK_LIMITS].map { Int32($0.rawValue) }
        let resolved: ImageError.Code = tooLarge.contains(status) && code == .badImageData ? .imageTooLarge : code
        return ImageError(resolved, "libspng could not \(action): \(reason)")
    }
}
