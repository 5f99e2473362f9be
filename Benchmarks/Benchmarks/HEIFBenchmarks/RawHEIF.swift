import CHEIF
import Foundation

/// The baseline: libheif called directly the way a program without SwiftWebImage decodes
/// a HEIC held in memory — read without copying, the primary image to interleaved RGBA8,
/// rows copied into its own buffer.
enum RawHEIF {
    /// The primary image as RGBA8.
    static func decode(_ data: Data) -> [UInt8] {
        data.withUnsafeBytes { bytes in
            let context = heif_context_alloc()!
            defer { heif_context_free(context) }
            heif_context_set_max_decoding_threads(context, 0)
            precondition(heif_context_read_from_memory_without_copy(context, bytes.baseAddress, bytes.count, nil).code == heif_error_Ok)
            var handle: OpaquePointer?
            precondition(heif_context_get_primary_image_handle(context, &handle).code == heif_error_Ok)
            defer { heif_image_handle_release(handle) }
            var image: OpaquePointer?
            precondition(heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, nil).code == heif_error_Ok, "raw libheif decode failed")
            defer { heif_image_release(image) }
            let width = Int(heif_image_get_width(image, heif_channel_interleaved))
            let height = Int(heif_image_get_height(image, heif_channel_interleaved))
            var stride: Int32 = 0
            let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride)!
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            pixels.withUnsafeMutableBytes { target in
                for row in 0..<height {
                    (target.baseAddress! + row * width * 4).copyMemory(from: plane + row * Int(stride), byteCount: width * 4)
                }
            }
            return pixels
        }
    }
}
