#if ColorManagement
import WebImageColor
#endif

extension Image {
    /// The same image with the pixels of every frame converted from ``colorProfile`` to
    /// sRGB and no profile; the image itself when it carries none, or when the profile
    /// cannot be read or does not fit the pixels (a CMYK profile on RGB pixels, say),
    /// which then only drops the profile.
    ///
    /// Without the `ColorManagement` trait there is no colour engine: the pixels stay as
    /// they are and the profile is dropped.
    public func convertedToSRGB() -> Image {
        guard let profile = colorProfile else { return self }
        #if ColorManagement
        let layout: ColorPixelLayout = bitmap.pixelFormat == .rgba16 ? .rgba16 : .rgba8
        guard let transform = profile.data.withUnsafeBytes({ ColorTransform(profile: $0, layout: layout) }) else {
            return withColorProfile(nil)
        }
        return replacingFrames { bitmap in
            var bitmap = bitmap
            let count = bitmap.width * bitmap.height
            bitmap.pixels.withUnsafeMutableBytes { transform.apply(to: $0, pixelCount: count) }
            return bitmap
        }.withColorProfile(nil)
        #else
        return withColorProfile(nil)
        #endif
    }
}
