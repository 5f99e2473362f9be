#if ColorManagement
// Compiled only with the `ColorManagement` package trait, so that a build without it
// never imports CLCMS and needs no Little CMS headers.
import CLCMS

/// A conversion of pixels from an embedded ICC profile to sRGB, made by Little CMS 2 with
/// the relative colorimetric intent and black-point compensation (what libvips uses).
///
/// The transform works in place on four-channel pixels (see ``ColorPixelLayout``): RGB
/// keeps its alpha, gray held as RGBA comes out as RGB, and ink (CMYK) comes out as opaque
/// RGBA. It keeps no cache between calls, so one transform may serve several threads at once.
public final class ColorTransform: @unchecked Sendable {
    // @unchecked: the handle is created once and only read after; Little CMS allows
    // concurrent `cmsDoTransform` calls on a transform made with `cmsFLAGS_NOCACHE`.
    private let handle: cmsHTRANSFORM
    /// The layout of the pixels the transform takes.
    public let layout: ColorPixelLayout

    /// A transform from the ICC profile in `profile` to sRGB for pixels laid out as
    /// `layout`; `nil` when Little CMS cannot read the profile or the profile's colour
    /// space does not fit the layout (a CMYK profile on RGB pixels, say).
    public init?(profile: UnsafeRawBufferPointer, layout: ColorPixelLayout) {
        guard let base = profile.baseAddress, profile.count >= 132, profile.count <= Int(UInt32.max),
            let source = cmsOpenProfileFromMem(base, cmsUInt32Number(profile.count))
        else { return nil }
        defer { cmsCloseProfile(source) }
        guard let sourceType = layout.sourceType(for: cmsGetColorSpace(source)),
            let sRGB = cmsCreate_sRGBProfile()
        else { return nil }
        defer { cmsCloseProfile(sRGB) }
        // RGB copies its alpha; gray (one channel read, three skipped) and ink write only
        // the colour channels, and gray's alpha stays where it is in place.
        let copiesAlpha = sourceType == clcms_type_rgba_8 || sourceType == clcms_type_rgba_16
        let flags =
            cmsUInt32Number(cmsFLAGS_BLACKPOINTCOMPENSATION | cmsFLAGS_NOCACHE)
            | (copiesAlpha ? cmsUInt32Number(cmsFLAGS_COPY_ALPHA) : 0)
        guard
            let handle = cmsCreateTransform(
                source, sourceType, sRGB, layout.destinationType, cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC), flags)
        else { return nil }
        self.handle = handle
        self.layout = layout
    }

    deinit {
        cmsDeleteTransform(handle)
    }

    /// Converts `pixelCount` pixels at `pixels` to sRGB RGBA in place.
    ///
    /// - Precondition: `pixels` holds at least `pixelCount` pixels of ``layout``.
    public func apply(to pixels: UnsafeMutableRawBufferPointer, pixelCount: Int) {
        precondition(pixels.count >= pixelCount * layout.bytesPerPixel, "the buffer is smaller than its pixels")
        guard let base = pixels.baseAddress, pixelCount > 0 else { return }
        // Little CMS counts pixels in 32 bits: convert in slices that fit.
        let slice = 1 << 24
        var done = 0
        while done < pixelCount {
            let count = min(slice, pixelCount - done)
            let start = base + done * layout.bytesPerPixel
            cmsDoTransform(handle, start, start, cmsUInt32Number(count))
            done += count
        }
        if layout.isInk {
            setOpaque(pixels, pixelCount: pixelCount)
        }
    }

    /// Writes full alpha over the fourth channel, which ink used for black.
    private func setOpaque(_ pixels: UnsafeMutableRawBufferPointer, pixelCount: Int) {
        switch layout.bytesPerPixel {
        case 8:
            let words = pixels.bindMemory(to: UInt16.self)
            for index in 0..<pixelCount { words[index * 4 + 3] = .max }
        default:
            for index in 0..<pixelCount { pixels[index * 4 + 3] = .max }
        }
    }
}
#endif
