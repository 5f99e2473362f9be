#if HEIF
// Compiled only with the `HEIF` package trait, so that a build without it never imports
// CHEIF and needs no libheif headers.
import CHEIF
import Foundation
import WebImageCore

/// Reads the primary image of a HEIF file in memory with libheif: the container is
/// parsed with libheif's size limit set, the declared size is checked against the decode
/// options, and only then is the image decoded (grids assembled, `clap`/`irot`/`imir`
/// applied by libheif) to interleaved RGBA.
final class HEIFReader {
    private let context: OpaquePointer
    private let handle: OpaquePointer
    /// The primary image's size as displayed.
    let size: PixelSize

    /// libheif's global initialisation, done once per process and never undone.
    private static let initialised: Void = { _ = heif_init(nil) }()

    /// Parses the container in `bytes`, which must outlive the reader.
    init(bytes: UnsafeRawBufferPointer, options: ImageDecodeOptions) throws(ImageError) {
        _ = HEIFReader.initialised
        guard let context = heif_context_alloc() else { throw ImageError(.badImageData, "libheif could not create a context") }
        // libheif 1.15's one security limit is on width and height each; the pixel
        // budget is checked against the declared size below.
        heif_context_set_maximum_image_size_limit(context, Int32(clamping: min(options.maxPixelCount, 1 << 16)))
        heif_context_set_max_decoding_threads(context, 0)
        if let error = ImageError(heif: heif_context_read_from_memory_without_copy(context, bytes.baseAddress, bytes.count, nil), "heif_context_read_from_memory") {
            heif_context_free(context)
            throw error
        }
        var primary: OpaquePointer?
        if let error = ImageError(heif: heif_context_get_primary_image_handle(context, &primary), "heif_context_get_primary_image_handle") {
            heif_context_free(context)
            throw error
        }
        guard let primary else {
            heif_context_free(context)
            throw ImageError(.badImageData, "the HEIF file has no primary image")
        }
        self.context = context
        handle = primary
        size = PixelSize(width: Int(heif_image_handle_get_width(primary)), height: Int(heif_image_handle_get_height(primary)))
    }

    deinit {
        heif_image_handle_release(handle)
        heif_context_free(context)
    }

    /// Whether the primary image has an alpha plane.
    var hasAlpha: Bool { heif_image_handle_has_alpha_channel(handle) != 0 }

    /// The ICC profile of the primary image's `colr` box (`prof` or `rICC`); `nil` when it
    /// has none, or only CICP numbers.
    var colorProfile: ColorProfile? {
        let type = heif_image_handle_get_color_profile_type(handle)
        guard type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC else { return nil }
        let size = heif_image_handle_get_raw_color_profile_size(handle)
        guard size > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: size)
        let error = heif_image_handle_get_raw_color_profile(handle, &bytes)
        guard error.code == heif_error_Ok else { return nil }
        return ColorProfile(data: Data(bytes))
    }

    /// 16-bit output for more than 8 bits per sample.
    var pixelFormat: PixelFormat { heif_image_handle_get_luma_bits_per_pixel(handle) > 8 ? .rgba16 : .rgba8 }

    /// Decodes the primary image, upright, after checking its size against `options`.
    func decode(options: ImageDecodeOptions) throws(ImageError) -> Bitmap {
        try options.checkAllocation(size, bytesPerPixel: pixelFormat.bytesPerPixel)
        let wide = pixelFormat == .rgba16
        var image: OpaquePointer?
        let chroma = wide ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RGBA
        if let error = ImageError(heif: heif_decode_image(handle, &image, heif_colorspace_RGB, chroma, nil), "heif_decode_image") {
            throw error
        }
        guard let image else { throw ImageError(.badImageData, "libheif decoded no image") }
        defer { heif_image_release(image) }
        let width = Int(heif_image_get_width(image, heif_channel_interleaved))
        let height = Int(heif_image_get_height(image, heif_channel_interleaved))
        var stride: Int32 = 0
        guard width > 0, height > 0, let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride) else {
            throw ImageError(.badImageData, "libheif decoded an empty image")
        }
        let rowBytes = width * pixelFormat.bytesPerPixel
        var pixels = try [UInt8](repeating: 0, imageSized: rowBytes, height)
        pixels.withUnsafeMutableBytes { target in
            for row in 0..<height {
                (target.baseAddress! + row * rowBytes).copyMemory(from: plane + row * Int(stride), byteCount: rowBytes)
            }
        }
        if wide {
            HEIFReader.widen(&pixels, fromBits: Int(heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved)))
        }
        return Bitmap(width: width, height: height, pixelFormat: pixelFormat, pixels: pixels)
    }

    /// Scales samples of `bits` bits (libheif keeps 10 and 12 bits as they are) to the
    /// full 16-bit range.
    private static func widen(_ pixels: inout [UInt8], fromBits bits: Int) {
        guard bits > 0, bits < 16 else { return }
        let maximum = UInt32(1 << bits) - 1
        pixels.withUnsafeMutableBytes { raw in
            let samples = raw.bindMemory(to: UInt16.self)
            for index in samples.indices {
                samples[index] = UInt16((min(UInt32(samples[index]), maximum) * 65535 + maximum / 2) / maximum)
            }
        }
    }
}
#endif
