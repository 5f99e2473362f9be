import CJPEGShim

/// How the pixels of the rows libjpeg reads or writes are laid out.
package enum JPEGPixelLayout: Sendable, Hashable {
    /// Red, green, blue and a fourth byte (255 when decoding, ignored when encoding).
    case rgba
    /// Red, green, blue.
    case rgb
    /// Four bytes of ink as the file stores them (decoding only).
    case cmyk

    /// Bytes per pixel.
    package var bytesPerPixel: Int {
        self == .rgb ? 3 : 4
    }

    /// The shim's name for the layout.
    var shimValue: cjpeg_pixels {
        switch self {
        case .rgba: CJPEG_PIXELS_RGBA
        case .rgb: CJPEG_PIXELS_RGB
        case .cmyk: CJPEG_PIXELS_CMYK
        }
    }
}
