import Foundation

#if ColorManagement
import WebImageColor
#endif

/// The ICC colour profile a source embeds: its bytes as stored, and what they describe.
///
/// Decoders read it from the JPEG `APP2` `ICC_PROFILE` segments, the PNG `iCCP` chunk, the
/// WebP `ICCP` chunk, the AVIF and HEIF `colr` box, the JPEG XL codestream and the TIFF
/// tag 34675. An image that carries one has pixels in that profile's colour space, not
/// in sRGB; ``ImageEncodeOptions/colorProfile`` says whether an encoder converts them to
/// sRGB or writes the profile along.
public struct ColorProfile: Sendable, Hashable {
    /// The profile's bytes, exactly as the source stores them.
    public let data: Data
    /// The profile's description (`"Display P3"`, `"Adobe RGB (1998)"`…) when the
    /// `ColorManagement` trait's Little CMS can read one; `nil` otherwise.
    public let description: String?

    /// Wraps the profile bytes `data`; `nil` for data too short to be an ICC profile (its
    /// header alone is 128 bytes).
    public init?(data: Data) {
        guard data.count >= 132 else { return nil }
        self.data = data
        #if ColorManagement
        description = data.withUnsafeBytes { ICCProfileDescription(profile: $0)?.text }
        #else
        description = nil
        #endif
    }
}
