/// What an encoder does with the colour profile an image carries (``Image/colorProfile``).
public enum ColorProfileHandling: String, Sendable, Hashable, CaseIterable {
    /// Convert the pixels to sRGB and write no profile, as imgproxy does by default: every
    /// browser and viewer shows the result right, and no bytes go to the profile. Needs the
    /// `ColorManagement` trait; without it the pixels are written unchanged, without profile.
    case convertToSRGB = "srgb"
    /// Write the pixels unchanged with the source's profile, byte for byte, in formats that
    /// can hold one (JPEG, PNG, WebP, AVIF, HEIF, JPEG XL, TIFF), as libvips does.
    case keep
}
