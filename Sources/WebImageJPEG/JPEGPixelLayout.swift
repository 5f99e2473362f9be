import CJPEGShim

/// How the pixels of the rows libjpeg reads or writes are laid out.
package enum JPEGPixelLayout: Sendable, Hashable {
    /// Red, green, blue and a fourth byte (255 when decoding, ignored when encoding).
    case rgba
    /// Red, green, blue.
    case rgb
    /// Four bytes of ink as the file stores them (decoding only).
    case cmyk
    /// One byte of luminance (encoding only).
    case gray

    /// Bytes per pixel.
    package var bytesPerPixel: Int {
        switch self {
        case .rgb: 3
        case .gray: 1
        case .rgba, .cmyk: 4
        }
    }

    /// The shim's name for the layout.
    var shimValue: cjpeg_pixels {
        switch self {
        case .rgba: CJPEG_PIXELS_RGBA
        case .rgb: CJPEG_PIXELS_RGB
        case .cmyk: CJPEG_PIXELS_CMYK
        case .gray: CJPEG_PIXELS_GRAY
        }
    }
}
