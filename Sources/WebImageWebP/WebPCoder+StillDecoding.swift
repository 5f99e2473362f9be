import CWebP
import WebImageCore

extension WebPCoder {
    /// Reads the bitstream header: size, alpha and animation flags.
    static func features(of bytes: UnsafeRawBufferPointer) throws(ImageError) -> WebPBitstreamFeatures {
        var features = WebPBitstreamFeatures()
        let status = WebPGetFeaturesInternal(
            bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, &features, WEBP_DECODER_ABI_VERSION)
        guard status == VP8_STATUS_OK else { throw error(status, while: "reading the WebP header") }
        return features
    }

    /// Decodes a still image into a buffer of the target size, letting libwebp scale.
    func decodeStill(
        _ bytes: UnsafeRawBufferPointer,
        features: WebPBitstreamFeatures,
        options: ImageDecodeOptions
    ) throws(ImageError) -> Image {
        let source = PixelSize(width: Int(features.width), height: Int(features.height))
        let target = options.targetSize(forSource: source)
        try options.checkAllocation(target)
        var configuration = WebPDecoderConfig()
        guard WebPInitDecoderConfigInternal(&configuration, WEBP_DECODER_ABI_VERSION) != 0 else {
            throw ImageError(.badImageData, "libwebp refused its decoder configuration")
        }
        if target != source {
            configuration.options.use_scaling = 1
            configuration.options.scaled_width = Int32(target.width)
            configuration.options.scaled_height = Int32(target.height)
        }
        configuration.output.colorspace = MODE_RGBA
        configuration.output.is_external_memory = 1
        let byteCount = target.width * target.height * 4
        var status = VP8_STATUS_OK
        let pixels = try [UInt8](unsafeUninitializedImageSized: byteCount) { buffer, initialized in
            configuration.output.u.RGBA.rgba = buffer.baseAddress
            configuration.output.u.RGBA.stride = Int32(target.width * 4)
            configuration.output.u.RGBA.size = byteCount
            status = WebPDecode(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, &configuration)
            initialized = status == VP8_STATUS_OK ? byteCount : 0
        }
        WebPFreeDecBuffer(&configuration.output)
        guard status == VP8_STATUS_OK else { throw WebPCoder.error(status, while: "decoding") }
        return Image(
            bitmap: Bitmap(width: target.width, height: target.height, pixels: pixels),
            scale: options.scaleFactor ?? 1, format: .webp, hasAlpha: features.has_alpha != 0,
            colorProfile: WebPICCProfile.read(from: bytes)
        )
    }

    /// An error for a libwebp status: the size, truncation or corruption it reports.
    static func error(_ status: VP8StatusCode, while action: String) -> ImageError {
        let reason =
            switch status {
            case VP8_STATUS_OUT_OF_MEMORY: "out of memory"
            case VP8_STATUS_INVALID_PARAM: "invalid parameter"
            case VP8_STATUS_BITSTREAM_ERROR: "corrupt bitstream"
            case VP8_STATUS_UNSUPPORTED_FEATURE: "unsupported feature"
            case VP8_STATUS_SUSPENDED: "suspended"
            case VP8_STATUS_USER_ABORT: "aborted"
            case VP8_STATUS_NOT_ENOUGH_DATA: "the data is truncated"
            default: "status \(status.rawValue)"
            }
        return ImageError(.badImageData, "WebP data is invalid (\(action)): \(reason)")
    }
}
