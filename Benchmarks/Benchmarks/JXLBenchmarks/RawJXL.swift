import CJXL
import Foundation

/// The baseline: libjxl called directly the way a program without SwiftWebImage decodes
/// a JPEG XL held in memory — one thread, the whole input at once, the first frame as
/// RGBA8 into its own buffer.
enum RawJXL {
    /// The first frame as RGBA8.
    static func decode(_ data: Data) -> [UInt8] {
        data.withUnsafeBytes { bytes in
            let decoder = JxlDecoderCreate(nil)!
            defer { JxlDecoderDestroy(decoder) }
            let events = JXL_DEC_BASIC_INFO.rawValue | JXL_DEC_FULL_IMAGE.rawValue
            precondition(JxlDecoderSubscribeEvents(decoder, Int32(events)) == JXL_DEC_SUCCESS)
            precondition(JxlDecoderSetInput(decoder, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count) == JXL_DEC_SUCCESS)
            JxlDecoderCloseInput(decoder)
            var format = JxlPixelFormat(num_channels: 4, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
            var pixels: [UInt8] = []
            while true {
                switch JxlDecoderProcessInput(decoder) {
                case JXL_DEC_BASIC_INFO:
                    var info = JxlBasicInfo()
                    _ = JxlDecoderGetBasicInfo(decoder, &info)
                    pixels = [UInt8](repeating: 0, count: Int(info.xsize) * Int(info.ysize) * 4)
                case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                    let status = pixels.withUnsafeMutableBytes { JxlDecoderSetImageOutBuffer(decoder, &format, $0.baseAddress, $0.count) }
                    precondition(status == JXL_DEC_SUCCESS)
                case JXL_DEC_FULL_IMAGE, JXL_DEC_SUCCESS:
                    return pixels
                default:
                    preconditionFailure("raw libjxl decode failed")
                }
            }
        }
    }
}
