#if JXL
// Compiled only with the `JXL` package trait, so that a build without it never imports
// CJXL and needs no libjxl headers.
import CJXL
import Foundation
import WebImageCore

/// Writes an image's frames as a JPEG XL still image or animation with libjxl's encoder,
/// on the calling thread.
struct JXLWriter {
    /// The image to write.
    let image: Image
    /// Quality, lossless and frame selection.
    let options: ImageEncodeOptions
    /// libjxl's effort, 1…9.
    let effort: Int

    /// Animation ticks per second: durations are written in milliseconds.
    private static let ticksPerSecond: UInt32 = 1000

    /// The encoded file, reading the options' cancellation before each frame.
    func write() throws(ImageError) -> Data {
        guard let encoder = JxlEncoderCreate(nil) else { throw ImageError(.encodingFailed, "libjxl could not create an encoder") }
        defer { JxlEncoderDestroy(encoder) }
        let frames = options.firstFrameOnly ? [image.frames[0]] : image.frames
        let animated = frames.count > 1
        let first = frames[0].bitmap
        let bits = UInt32(first.pixelFormat.bitsPerComponent)
        let alpha = image.hasAlpha
        var info = JxlBasicInfo()
        JxlEncoderInitBasicInfo(&info)
        info.xsize = UInt32(first.width)
        info.ysize = UInt32(first.height)
        info.bits_per_sample = bits
        info.num_color_channels = 3
        info.alpha_bits = alpha ? bits : 0
        info.num_extra_channels = alpha ? 1 : 0
        info.uses_original_profile = options.lossless ? 1 : 0
        if animated {
            info.have_animation = 1
            info.animation.tps_numerator = JXLWriter.ticksPerSecond
            info.animation.tps_denominator = 1
            info.animation.num_loops = UInt32(clamping: image.loopCount)
        }
        guard JxlEncoderSetBasicInfo(encoder, &info) == JXL_ENC_SUCCESS, setColor(of: encoder),
            let settings = JxlEncoderFrameSettingsCreate(encoder, nil),
            JxlEncoderFrameSettingsSetOption(settings, JXL_ENC_FRAME_SETTING_EFFORT, Int64(effort)) == JXL_ENC_SUCCESS
        else { throw JXLWriter.failure(encoder, "libjxl refused the image settings") }
        let configured =
            options.lossless
            ? JxlEncoderSetFrameLossless(settings, 1) == JXL_ENC_SUCCESS
            : JxlEncoderSetFrameDistance(settings, JXLWriter.distance(forQuality: options.quality)) == JXL_ENC_SUCCESS
        guard configured else { throw JXLWriter.failure(encoder, "libjxl refused the quality settings") }
        var format = JxlPixelFormat(
            num_channels: alpha ? 4 : 3, data_type: bits == 16 ? JXL_TYPE_UINT16 : JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
        for (index, frame) in frames.enumerated() {
            try options.cancellation?.check(before: "frame \(index) of the JPEG XL animation")
            if animated {
                var header = JxlFrameHeader()
                JxlEncoderInitFrameHeader(&header)
                header.duration = UInt32(max(0, (frame.duration * Double(JXLWriter.ticksPerSecond)).rounded()))
                guard JxlEncoderSetFrameHeader(settings, &header) == JXL_ENC_SUCCESS else { throw JXLWriter.failure(encoder, "libjxl refused a frame header") }
            }
            let samples = alpha ? frame.bitmap.pixels : try JXLWriter.droppingAlpha(frame.bitmap)
            let added = samples.withUnsafeBytes { JxlEncoderAddImageFrame(settings, &format, $0.baseAddress, $0.count) }
            guard added == JXL_ENC_SUCCESS else { throw JXLWriter.failure(encoder, "libjxl refused a frame") }
        }
        JxlEncoderCloseInput(encoder)
        return try JXLWriter.drain(encoder)
    }

    /// The encoded bytes, collected in chunks as libjxl produces them.
    static func drain(_ encoder: OpaquePointer) throws(ImageError) -> Data {
        var output = [UInt8](repeating: 0, count: 64 << 10)
        var used = 0
        while true {
            var status = JXL_ENC_SUCCESS
            output.withUnsafeMutableBufferPointer { buffer in
                var next: UnsafeMutablePointer<UInt8>? = buffer.baseAddress! + used
                var available = buffer.count - used
                status = JxlEncoderProcessOutput(encoder, &next, &available)
                used = buffer.count - available
            }
            switch status {
            case JXL_ENC_SUCCESS:
                return Data(output[0..<used])
            case JXL_ENC_NEED_MORE_OUTPUT:
                output.append(contentsOf: repeatElement(0, count: output.count))
            default:
                throw JXLWriter.failure(encoder, "libjxl could not encode the image")
            }
        }
    }

    private static func failure(_ encoder: OpaquePointer, _ message: String) -> ImageError {
        ImageError(.encodingFailed, "\(message) (error \(JxlEncoderGetError(encoder).rawValue))")
    }

    /// The Butteraugli distance for a quality in 0…1, by the mapping `cjxl` applies to its
    /// 0–100 quality: 1.0 at 90, 0.1 at 100, rising faster below 30.
    static func distance(forQuality quality: Double) -> Float {
        let percent = quality * 100
        let distance = percent >= 30 ? 0.1 + (100 - percent) * 0.09 : 6.4 + pow(2.5, (30 - percent) / 5) / 6.25
        return Float(min(distance, 25))
    }

    /// The RGB samples of an opaque bitmap.
    private static func droppingAlpha(_ bitmap: Bitmap) throws(ImageError) -> [UInt8] {
        let sampleBytes = bitmap.pixelFormat.bytesPerPixel / 4
        let pixelCount = bitmap.width * bitmap.height
        var rgb = try [UInt8](repeating: 0, imageSized: pixelCount, 3, sampleBytes)
        bitmap.pixels.withUnsafeBytes { source in
            rgb.withUnsafeMutableBytes { target in
                for pixel in 0..<pixelCount {
                    (target.baseAddress! + pixel * 3 * sampleBytes).copyMemory(from: source.baseAddress! + pixel * 4 * sampleBytes, byteCount: 3 * sampleBytes)
                }
            }
        }
        return rgb
    }

    /// Declares the pixels' colour: the image's ICC profile when the options keep it, else sRGB.
    private func setColor(of encoder: OpaquePointer) -> Bool {
        if options.colorProfile == .keep, let profile = image.colorProfile {
            return profile.data.withUnsafeBytes { icc in
                JxlEncoderSetICCProfile(encoder, icc.baseAddress?.assumingMemoryBound(to: UInt8.self), icc.count) == JXL_ENC_SUCCESS
            }
        }
        var color = JxlColorEncoding()
        JxlColorEncodingSetToSRGB(&color, 0)
        return JxlEncoderSetColorEncoding(encoder, &color) == JXL_ENC_SUCCESS
    }
}
#endif
