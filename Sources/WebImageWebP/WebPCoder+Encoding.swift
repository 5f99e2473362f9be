import CWebP
import Foundation
import WebImageCore

extension WebPCoder {
    /// Writes a still image with `WebPEncode`, or an animation with `WebPAnimEncoder`,
    /// with the image's ICC profile in an `ICCP` chunk when the options keep it, and the
    /// options' copyright in `EXIF` and `XMP ` chunks.
    ///
    /// Lossless output keeps the exact colour of transparent pixels (`exact`), so a
    /// round trip gives back every byte.
    func encodeImage(_ image: Image, options: ImageEncodeOptions) throws(ImageError) -> Data {
        var configuration = WebPConfig()
        guard WebPConfigInitInternal(&configuration, WEBP_PRESET_DEFAULT, Float(options.quality * 100), WEBP_ENCODER_ABI_VERSION) != 0 else {
            throw ImageError(.encodingFailed, "libwebp refused its encoder configuration")
        }
        if options.lossless {
            configuration.lossless = 1
            configuration.exact = 1
        }
        guard WebPValidateConfig(&configuration) != 0 else {
            throw ImageError(.encodingFailed, "libwebp rejected the encoder configuration")
        }
        let profile = options.colorProfile == .keep ? image.colorProfile : nil
        if image.isAnimated, !options.firstFrameOnly {
            var animation = try encodeAnimation(image, configuration: configuration, cancellation: options.cancellation)
            if let profile { animation = try WebPICCProfile.adding(profile, to: animation) }
            if let copyright = options.copyright { animation = try WebPCopyrightChunks.adding(copyright, to: animation) }
            return animation
        }
        var writer = WebPMemoryWriter()
        WebPMemoryWriterInit(&writer)
        defer { WebPMemoryWriterClear(&writer) }
        try withPicture(of: image.bitmap) { (picture: inout WebPPicture) throws(ImageError) in
            let isEncoded = withUnsafeMutablePointer(to: &writer) { writerPointer in
                picture.writer = WebPMemoryWrite
                picture.custom_ptr = UnsafeMutableRawPointer(writerPointer)
                return WebPEncode(&configuration, &picture) != 0
            }
            guard isEncoded else {
                throw ImageError(.encodingFailed, "WebP encoding failed (error \(picture.error_code.rawValue))")
            }
        }
        var still = Data(bytes: writer.mem, count: writer.size)
        if let profile { still = try WebPICCProfile.adding(profile, to: still) }
        if let copyright = options.copyright { still = try WebPCopyrightChunks.adding(copyright, to: still) }
        return still
    }

    /// Writes every frame into an animated WebP, with timestamps from the durations,
    /// reading `cancellation` before each frame.
    private func encodeAnimation(
        _ image: Image, configuration: WebPConfig, cancellation: ImageWorkCancellation?
    ) throws(ImageError) -> Data {
        var configuration = configuration
        var encoderOptions = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInitInternal(&encoderOptions, WEBP_MUX_ABI_VERSION) != 0 else {
            throw ImageError(.encodingFailed, "libwebp refused its animation encoder options")
        }
        encoderOptions.anim_params.loop_count = Int32(min(image.loopCount, 0xFFFF))
        guard
            let encoder = WebPAnimEncoderNewInternal(
                Int32(image.pixelWidth), Int32(image.pixelHeight), &encoderOptions, WEBP_MUX_ABI_VERSION
            )
        else {
            throw ImageError(.encodingFailed, "WebP cannot hold an animation of \(image.pixelSize)")
        }
        defer { WebPAnimEncoderDelete(encoder) }
        var timestamp = 0.0
        for (index, frame) in image.frames.enumerated() {
            try cancellation?.check(before: "frame \(index) of the WebP animation")
            try withPicture(of: frame.bitmap) { (picture: inout WebPPicture) throws(ImageError) in
                guard WebPAnimEncoderAdd(encoder, &picture, Int32(timestamp.rounded()), &configuration) != 0 else {
                    throw animationError(encoder)
                }
            }
            timestamp += frame.duration * 1000
        }
        var output = WebPData()
        guard WebPAnimEncoderAdd(encoder, nil, Int32(timestamp.rounded()), nil) != 0,
            WebPAnimEncoderAssemble(encoder, &output) != 0
        else { throw animationError(encoder) }
        defer { WebPFree(UnsafeMutableRawPointer(mutating: output.bytes)) }
        return Data(bytes: output.bytes, count: output.size)
    }

    /// Runs `body` with an ARGB picture of `bitmap` (converted to 8 bits), freed after.
    private func withPicture(
        of bitmap: Bitmap,
        _ body: (inout WebPPicture) throws(ImageError) -> Void
    ) throws(ImageError) {
        let rgba = try bitmap.convertedToRGBA8()
        var picture = WebPPicture()
        guard WebPPictureInitInternal(&picture, WEBP_ENCODER_ABI_VERSION) != 0 else {
            throw ImageError(.encodingFailed, "libwebp refused its picture")
        }
        defer { WebPPictureFree(&picture) }
        picture.use_argb = 1
        picture.width = Int32(clamping: rgba.width)
        picture.height = Int32(clamping: rgba.height)
        let isImported = rgba.pixels.withUnsafeBufferPointer { pixels in
            WebPPictureImportRGBA(&picture, pixels.baseAddress, Int32(clamping: rgba.bytesPerRow)) != 0
        }
        guard isImported else {
            throw ImageError(.encodingFailed, "WebP cannot hold an image of \(rgba.size)")
        }
        try body(&picture)
    }

    private func animationError(_ encoder: OpaquePointer) -> ImageError {
        let reason = WebPAnimEncoderGetError(encoder).map { String(cString: $0) } ?? "unknown error"
        return ImageError(.encodingFailed, "WebP animation encoding failed: \(reason)")
    }
}
