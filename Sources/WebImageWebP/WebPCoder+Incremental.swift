import CWebP
import WebImageCore

extension WebPCoder {
    /// Decodes the rows the bytes so far reach, straight into a transparent full-size
    /// buffer, with libwebp's incremental decoder.
    func decodePartially(
        _ bytes: UnsafeRawBufferPointer,
        isComplete: Bool,
        options: ImageDecodeOptions
    ) throws(ImageError) -> Image? {
        var features = WebPBitstreamFeatures()
        let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let headerStatus = WebPGetFeaturesInternal(base, bytes.count, &features, WEBP_DECODER_ABI_VERSION)
        if headerStatus == VP8_STATUS_NOT_ENOUGH_DATA, !isComplete { return nil }
        guard headerStatus == VP8_STATUS_OK else { throw WebPCoder.error(headerStatus, while: "reading the WebP header") }
        if features.has_animation != 0 {
            guard isComplete else { return nil }
            var firstFrame = options
            firstFrame.firstFrameOnly = true
            return try decodeAnimation(bytes, features: features, options: firstFrame)
        }
        let size = PixelSize(width: Int(features.width), height: Int(features.height))
        try options.checkAllocation(size)
        var pixels = try [UInt8](repeating: 0, imageSized: size.width, size.height, 4)
        var status = VP8_STATUS_OK
        var decodedRows: Int32 = 0
        let isCreated = pixels.withUnsafeMutableBufferPointer { output in
            guard let decoder = WebPINewRGB(MODE_RGBA, output.baseAddress, output.count, Int32(size.width * 4)) else {
                return false
            }
            defer { WebPIDelete(decoder) }
            status = WebPIUpdate(decoder, base, bytes.count)
            var width: Int32 = 0, height: Int32 = 0, stride: Int32 = 0
            _ = WebPIDecGetRGB(decoder, &decodedRows, &width, &height, &stride)
            return true
        }
        guard isCreated else { throw ImageError(.badImageData, "libwebp could not start an incremental decoder") }
        guard status == VP8_STATUS_OK || status == VP8_STATUS_SUSPENDED else {
            throw WebPCoder.error(status, while: "decoding incrementally")
        }
        guard decodedRows > 0 else { return nil }
        let bitmap = Bitmap(width: size.width, height: size.height, pixels: pixels)
        let target = options.targetSize(forSource: size)
        return try Image(
            bitmap: bitmap.resized(to: target), scale: options.scaleFactor ?? 1,
            format: .webp, hasAlpha: features.has_alpha != 0
        )
    }
}
