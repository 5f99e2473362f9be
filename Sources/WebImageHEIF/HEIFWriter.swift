#if HEIF
// Compiled only with the `HEIF` package trait, so that a build without it never imports
// CHEIF and needs no libheif headers.
import CHEIF
import Foundation
import WebImageCore

/// Writes an image's first frame as HEIC with libheif's HEVC encoder (x265 on Debian).
struct HEIFWriter {
    /// The image to write.
    let image: Image
    /// Quality and lossless.
    let options: ImageEncodeOptions

    /// Whether this libheif has an HEVC encoder.
    static var canEncode: Bool { heif_have_encoder_for_format(heif_compression_HEVC) != 0 }

    /// The encoded file.
    func write() throws(ImageError) -> Data {
        let bitmap = image.frames[0].bitmap
        guard let context = heif_context_alloc() else { throw ImageError(.encodingFailed, "libheif could not create a context") }
        defer { heif_context_free(context) }
        var encoder: OpaquePointer?
        if let error = ImageError(
            heif: heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder), "heif_context_get_encoder_for_format", failure: .encodingFailed)
        {
            throw error
        }
        guard let encoder else { throw ImageError(.unsupportedFormat, "libheif has no HEVC encoder") }
        defer { heif_encoder_release(encoder) }
        let setting =
            options.lossless
            ? heif_encoder_set_lossless(encoder, 1)
            : heif_encoder_set_lossy_quality(encoder, Int32((options.quality * 100).rounded()))
        if let error = ImageError(heif: setting, "setting the encoder's quality", failure: .encodingFailed) { throw error }
        let planes = try makeImage(bitmap)
        defer { heif_image_release(planes) }
        if let error = ImageError(heif: heif_context_encode_image(context, planes, encoder, nil, nil), "heif_context_encode_image", failure: .encodingFailed) {
            throw error
        }
        let sink = HEIFByteSink()
        var writer = heif_writer(writer_api_version: 1) { _, data, size, userdata in
            let sink = Unmanaged<HEIFByteSink>.fromOpaque(userdata!).takeUnretainedValue()
            if let data { sink.bytes.append(data.assumingMemoryBound(to: UInt8.self), count: size) }
            return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: nil)
        }
        let written = withExtendedLifetime(sink) { heif_context_write(context, &writer, Unmanaged.passUnretained(sink).toOpaque()) }
        if let error = ImageError(heif: written, "heif_context_write", failure: .encodingFailed) { throw error }
        return sink.bytes
    }

    /// An interleaved RGB or RGBA libheif image holding `bitmap` (8-bit; a 16-bit bitmap
    /// is written at 10 bits).
    private func makeImage(_ bitmap: Bitmap) throws(ImageError) -> OpaquePointer {
        let alpha = image.hasAlpha
        let wide = bitmap.pixelFormat == .rgba16
        let chroma: heif_chroma =
            switch (alpha, wide) {
            case (true, true): heif_chroma_interleaved_RRGGBBAA_LE
            case (false, true): heif_chroma_interleaved_RRGGBB_LE
            case (true, false): heif_chroma_interleaved_RGBA
            case (false, false): heif_chroma_interleaved_RGB
            }
        var planes: OpaquePointer?
        if let error = ImageError(
            heif: heif_image_create(Int32(bitmap.width), Int32(bitmap.height), heif_colorspace_RGB, chroma, &planes), "heif_image_create", failure: .encodingFailed)
        {
            throw error
        }
        guard let planes else { throw ImageError(.encodingFailed, "libheif created no image") }
        if options.colorProfile == .keep, let profile = image.colorProfile {
            let set = profile.data.withUnsafeBytes { icc in
                heif_image_set_raw_color_profile(planes, "prof", icc.baseAddress, icc.count)
            }
            guard set.code == heif_error_Ok else {
                heif_image_release(planes)
                throw ImageError(.encodingFailed, "libheif refused the ICC profile")
            }
        }
        let bits: Int32 = wide ? 10 : 8
        var stride: Int32 = 0
        guard heif_image_add_plane(planes, heif_channel_interleaved, Int32(bitmap.width), Int32(bitmap.height), bits).code == heif_error_Ok,
            let plane = heif_image_get_plane(planes, heif_channel_interleaved, &stride)
        else {
            heif_image_release(planes)
            throw ImageError(.encodingFailed, "libheif could not add an image plane")
        }
        let channels = alpha ? 4 : 3
        bitmap.pixels.withUnsafeBytes { source in
            for y in 0..<bitmap.height {
                let row = plane + y * Int(stride)
                for x in 0..<bitmap.width {
                    for channel in 0..<channels {
                        let sample = (y * bitmap.width + x) * 4 + channel
                        if wide {
                            let value = source.load(fromByteOffset: sample * 2, as: UInt16.self) >> 6
                            (row + (x * channels + channel) * 2).withMemoryRebound(to: UInt16.self, capacity: 1) { $0.pointee = value.littleEndian }
                        } else {
                            row[x * channels + channel] = source[sample]
                        }
                    }
                }
            }
        }
        return planes
    }
}

/// The bytes libheif's writer callback appends to.
private final class HEIFByteSink {
    var bytes = Data()
}
#endif
