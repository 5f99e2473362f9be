#if TIFF
import WebImageCore

#if ColorManagement
import WebImageColor
#endif

/// Turns CMYK ink, as ``TIFFSampleLayout`` reads it into the four channels of a bitmap
/// (0 meaning no ink), into opaque RGB: through the page's ICC profile with Little CMS
/// when there is a CMYK one (the `ColorManagement` trait), else by the naive formula
/// libtiff's RGBA interface uses.
enum TIFFInkConversion {
    static func convertToRGB(_ bitmap: inout Bitmap, profile: ColorProfile?) {
        let count = bitmap.width * bitmap.height
        let wide = bitmap.pixelFormat == .rgba16
        #if ColorManagement
        if let profile,
            let transform = profile.data.withUnsafeBytes({ ColorTransform(profile: $0, layout: wide ? .cmyk16 : .cmyk8) })
        {
            bitmap.pixels.withUnsafeMutableBytes { transform.apply(to: $0, pixelCount: count) }
            return
        }
        #endif
        bitmap.pixels.withUnsafeMutableBytes { bytes in
            if wide {
                naive(bytes.bindMemory(to: UInt16.self), count: count)
            } else {
                naive(bytes.bindMemory(to: UInt8.self), count: count)
            }
        }
    }

    private static func naive<Sample: FixedWidthInteger & UnsignedInteger>(_ samples: UnsafeMutableBufferPointer<Sample>, count: Int) {
        let full = UInt64(Sample.max)
        for pixel in 0..<count {
            let base = pixel * 4
            let white = full - UInt64(samples[base + 3])
            for channel in 0..<3 {
                samples[base + channel] = Sample((full - UInt64(samples[base + channel])) * white / full)
            }
            samples[base + 3] = Sample.max
        }
    }
}
#endif
