#if ColorManagement
import CLCMS

/// How the pixels handed to a ``ColorTransform`` are laid out. Every layout takes four
/// channels a pixel, so a transform works in place and leaves RGBA behind.
public enum ColorPixelLayout: Sendable, Hashable {
    /// Four 8-bit channels, red, green, blue and alpha (alpha is kept).
    case rgba8
    /// Four 16-bit channels in the host's byte order, red, green, blue and alpha (alpha is kept).
    case rgba16
    /// Four 8-bit ink channels, cyan, magenta, yellow and black, 0 meaning no ink.
    case cmyk8
    /// Four 8-bit ink channels stored inverted, 255 meaning no ink (Adobe's CMYK JPEGs).
    case cmyk8Inverted
    /// Four 16-bit ink channels in the host's byte order, 0 meaning no ink.
    case cmyk16

    /// Bytes taken by one pixel, before and after the transform.
    public var bytesPerPixel: Int {
        switch self {
        case .rgba8, .cmyk8, .cmyk8Inverted: 4
        case .rgba16, .cmyk16: 8
        }
    }

    /// Whether the layout holds ink, so the transform writes opaque alpha over its fourth channel.
    var isInk: Bool {
        switch self {
        case .cmyk8, .cmyk8Inverted, .cmyk16: true
        case .rgba8, .rgba16: false
        }
    }

    /// The Little CMS pixel type of the source, for a profile of `space`; `nil` when the
    /// profile's colour space does not describe this layout.
    func sourceType(for space: cmsColorSpaceSignature) -> cmsUInt32Number? {
        switch (self, space) {
        case (.rgba8, cmsSigRgbData): clcms_type_rgba_8
        case (.rgba16, cmsSigRgbData): clcms_type_rgba_16
        case (.rgba8, cmsSigGrayData): clcms_type_gray_in_rgba_8
        case (.rgba16, cmsSigGrayData): clcms_type_gray_in_rgba_16
        case (.cmyk8, cmsSigCmykData): clcms_type_cmyk_8
        case (.cmyk8Inverted, cmsSigCmykData): clcms_type_cmyk_8_reversed
        case (.cmyk16, cmsSigCmykData): clcms_type_cmyk_16
        default: nil
        }
    }

    /// The Little CMS pixel type the transform writes: RGBA of the same depth.
    var destinationType: cmsUInt32Number {
        bytesPerPixel == 8 ? clcms_type_rgba_16 : clcms_type_rgba_8
    }
}
#endif
