import CPNG
import Foundation
import WebImageCore

extension PNGCoder {
    /// Encodes `image` as PNG: RGBA when any pixel is not opaque, else RGB; 16-bit images
    /// at 16 bits per sample. An animation (unless `firstFrameOnly`) becomes an APNG whose
    /// frames are full-canvas, drawn with "source" blending and no disposal.
    ///
    /// - Throws: `ImageError/Code/unsupportedFormat` for any format but PNG,
    ///   `ImageError/Code/encodingFailed` when libspng refuses the image.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(ImageError) -> Data {
        guard format == .png else {
            throw ImageError(.unsupportedFormat, "the PNG coder cannot encode \(format.rawValue)")
        }
        let image = try options.prepared(image, for: format)
        let frames = options.firstFrameOnly ? [image.frames[0]] : image.frames
        let keepsAlpha = frames.contains { $0.bitmap.containsTransparency }
        let png: Data
        if frames.count == 1 {
            let profile = options.colorProfile == .keep ? image.colorProfile : nil
            png = try PNGCoder.encodeStill(frames[0].bitmap, keepingAlpha: keepsAlpha, colorProfile: profile)
        } else {
            png = try PNGCoder.encodeAnimation(
                frames, loopCount: image.loopCount, keepingAlpha: keepsAlpha, cancellation: options.cancellation)
        }
        guard let copyright = options.copyright else { return png }
        return PNGCopyrightChunks.inserting(copyright, into: png)
    }

    /// One bitmap as a complete PNG, compressed by libspng, with `colorProfile` in an
    /// `iCCP` chunk when one is given.
    package static func encodeStill(_ bitmap: Bitmap, keepingAlpha: Bool, colorProfile: ColorProfile? = nil) throws(ImageError) -> Data {
        guard bitmap.width > 0, bitmap.height > 0 else {
            throw ImageError(.encodingFailed, "an empty bitmap cannot be encoded as PNG")
        }
        let context = try SPNGContext.encoder()
        let bitDepth = UInt8(bitmap.pixelFormat.bitsPerComponent)
        let colorType = keepingAlpha ? SPNG_COLOR_TYPE_TRUECOLOR_ALPHA : SPNG_COLOR_TYPE_TRUECOLOR
        var header = spng_ihdr(
            width: UInt32(bitmap.width), height: UInt32(bitmap.height), bit_depth: bitDepth,
            color_type: UInt8(colorType.rawValue), compression_method: 0, filter_method: 0, interlace_method: 0
        )
        try context.check(spng_set_ihdr(context.handle, &header), "write the PNG header", code: .encodingFailed)
        if let colorProfile {
            try setICCProfile(colorProfile, in: context)
        }
        let samples = try pngSamples(of: bitmap, keepingAlpha: keepingAlpha)
        let status = samples.withUnsafeBytes { bytes in
            spng_encode_image(
                context.handle, bytes.baseAddress, bytes.count,
                Int32(SPNG_FMT_PNG.rawValue), Int32(SPNG_ENCODE_FINALIZE.rawValue)
            )
        }
        try context.check(status, "encode the image", code: .encodingFailed)
        var length = 0
        var error: Int32 = 0
        guard let buffer = spng_get_png_buffer(context.handle, &length, &error), error == 0 else {
            throw SPNGContext.error(error, "hand over the encoded PNG", code: .encodingFailed)
        }
        return Data(bytesNoCopy: buffer, count: length, deallocator: .free)
    }

    /// Gives libspng `profile` for the `iCCP` chunk, which it compresses, under the
    /// chunk name "ICC profile" (the chunk's own name is a required label that readers ignore).
    ///
    /// libspng keeps the pointer and reads the profile only in `spng_encode_image`, so
    /// the bytes are a copy the context owns (issue 38: a pointer valid only inside
    /// `withUnsafeMutableBufferPointer` wrote a profile with 499 bytes wrong).
    private static func setICCProfile(_ profile: ColorProfile, in context: SPNGContext) throws(ImageError) {
        var iccp = spng_iccp()
        let name = Array("ICC profile".utf8)
        withUnsafeMutableBytes(of: &iccp.profile_name) { field in
            for (index, byte) in name.enumerated() { field[index] = byte }
        }
        let bytes = context.keepCopy(of: profile.data)
        iccp.profile = bytes.bindMemory(to: CChar.self).baseAddress
        iccp.profile_len = bytes.count
        try context.check(spng_set_iccp(context.handle, &iccp), "write the ICC profile", code: .encodingFailed)
    }

    /// The bitmap's samples in the order libspng's encoder takes them: RGBA as stored, or
    /// RGB with alpha dropped. 16-bit samples stay in host byte order (libspng 0.7 swaps
    /// them to the file's big-endian order itself).
    private static func pngSamples(of bitmap: Bitmap, keepingAlpha: Bool) throws(ImageError) -> [UInt8] {
        if keepingAlpha { return bitmap.pixels }
        let sampleBytes = bitmap.pixelFormat.bitsPerComponent / 8
        let pixelCount = bitmap.width * bitmap.height
        return try [UInt8](unsafeUninitializedImageSized: pixelCount, 3, sampleBytes) { output, initialized in
            bitmap.pixels.withUnsafeBufferPointer { input in
                for pixel in 0..<pixelCount {
                    let from = pixel * 4 * sampleBytes
                    let to = pixel * 3 * sampleBytes
                    for byte in 0..<(3 * sampleBytes) { output[to + byte] = input[from + byte] }
                }
            }
            initialized = output.count
        }
    }
}
