import CAVIF
import Foundation

/// The baseline: libavif called directly the way a program without SwiftWebImage decodes
/// an AVIF held in memory — one thread, parse, the first image, then conversion to RGBA8
/// in its own buffer.
enum RawAVIF {
    /// The first image as RGBA8.
    static func decode(_ data: Data) -> [UInt8] {
        data.withUnsafeBytes { bytes in
            let decoder = avifDecoderCreate()!
            defer { avifDecoderDestroy(decoder) }
            decoder.pointee.maxThreads = 1
            precondition(avifDecoderSetIOMemory(decoder, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count) == AVIF_RESULT_OK)
            precondition(avifDecoderParse(decoder) == AVIF_RESULT_OK, "raw libavif parse failed")
            precondition(avifDecoderNextImage(decoder) == AVIF_RESULT_OK, "raw libavif decode failed")
            var rgb = avifRGBImage()
            avifRGBImageSetDefaults(&rgb, decoder.pointee.image)
            rgb.depth = 8
            rgb.rowBytes = rgb.width * 4
            let count = Int(rgb.rowBytes) * Int(rgb.height)
            return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                rgb.pixels = buffer.baseAddress
                precondition(avifImageYUVToRGB(decoder.pointee.image, &rgb) == AVIF_RESULT_OK, "raw libavif conversion failed")
                initialized = count
            }
        }
    }
}
