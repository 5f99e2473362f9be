import CJPEG
import CPNG
import CWebP
import Foundation
import WebImage

/// The baselines: each C library called directly, the way a program without
/// SwiftWebImage would, allocating its own RGBA output.
enum RawCodecs {
    /// TurboJPEG decode to RGBA at `size` (the full size or one of its DCT scales).
    static func decodeJPEG(_ data: Data, size: PixelSize) -> [UInt8] {
        let handle = tjInitDecompress()
        defer { tjDestroy(handle) }
        let pitch = size.width * 4
        return [UInt8](unsafeUninitializedCapacity: pitch * size.height) { buffer, count in
            data.withUnsafeBytes { source in
                let status = tjDecompress2(
                    handle, source.bindMemory(to: UInt8.self).baseAddress, UInt(data.count),
                    buffer.baseAddress, Int32(size.width), Int32(pitch), Int32(size.height),
                    Int32(TJPF_RGBA.rawValue), 0
                )
                precondition(status == 0, "raw TurboJPEG decode failed")
            }
            count = pitch * size.height
        }
    }

    /// libspng decode to 8-bit RGBA.
    static func decodePNG(_ data: Data) -> [UInt8] {
        let context = spng_ctx_new(0)
        defer { spng_ctx_free(context) }
        return data.withUnsafeBytes { source in
            spng_set_png_buffer(context, source.baseAddress, source.count)
            var length = 0
            spng_decoded_image_size(context, Int32(SPNG_FMT_RGBA8.rawValue), &length)
            return [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
                let status = spng_decode_image(
                    context, buffer.baseAddress, length, Int32(SPNG_FMT_RGBA8.rawValue), Int32(SPNG_DECODE_TRNS.rawValue)
                )
                precondition(status == 0, "raw libspng decode failed")
                count = length
            }
        }
    }

    /// libwebp decode to RGBA into a buffer of ours.
    static func decodeWebP(_ data: Data) -> [UInt8] {
        data.withUnsafeBytes { source in
            let bytes = source.bindMemory(to: UInt8.self).baseAddress
            var width: Int32 = 0, height: Int32 = 0
            precondition(WebPGetInfo(bytes, data.count, &width, &height) != 0, "raw libwebp cannot read the header")
            let length = Int(width) * Int(height) * 4
            return [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
                let result = WebPDecodeRGBAInto(bytes, data.count, buffer.baseAddress, length, width * 4)
                precondition(result != nil, "raw libwebp decode failed")
                count = length
            }
        }
    }
}
