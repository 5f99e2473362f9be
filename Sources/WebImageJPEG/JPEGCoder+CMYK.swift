import WebImageCore

#if ColorManagement
import WebImageColor
#endif

extension JPEGCoder {
    /// Turns CMYK pixels into opaque sRGB RGBA in place: through `profile` when Little CMS
    /// can use it (the `ColorManagement` trait), else by the naive formula.
    static func convertCMYKToRGBA(_ pixels: inout [UInt8], inverted: Bool, profile: ColorProfile?) {
        #if ColorManagement
        let layout: ColorPixelLayout = inverted ? .cmyk8Inverted : .cmyk8
        if let profile, let transform = profile.data.withUnsafeBytes({ ColorTransform(profile: $0, layout: layout) }) {
            let count = pixels.count / 4
            pixels.withUnsafeMutableBytes { transform.apply(to: $0, pixelCount: count) }
            return
        }
        #endif
        convertCMYKToRGBA(&pixels, inverted: inverted)
    }

    /// Turns CMYK pixels, as TurboJPEG hands them out, into opaque RGBA in place.
    ///
    /// Without a colour-management system this is the usual naive conversion: each
    /// channel is the paper's white reduced by its ink and by the black ink. Adobe's
    /// writers (every JPEG with an `APP14` segment) store the channels inverted, 255
    /// meaning no ink, so for them the stored values are the light that remains.
    static func convertCMYKToRGBA(_ pixels: inout [UInt8], inverted: Bool) {
        pixels.withUnsafeMutableBufferPointer { buffer in
            var index = 0
            while index + 3 < buffer.count {
                var cyan = UInt32(buffer[index]), magenta = UInt32(buffer[index + 1])
                var yellow = UInt32(buffer[index + 2]), black = UInt32(buffer[index + 3])
                if !inverted {
                    (cyan, magenta, yellow, black) = (255 - cyan, 255 - magenta, 255 - yellow, 255 - black)
                }
                buffer[index] = UInt8((cyan * black + 127) / 255)
                buffer[index + 1] = UInt8((magenta * black + 127) / 255)
                buffer[index + 2] = UInt8((yellow * black + 127) / 255)
                buffer[index + 3] = 255
                index += 4
            }
        }
    }
}
