#if ColorManagement
import CLCMS

/// What Little CMS reads from an ICC profile's header and tags, without making a transform.
public struct ICCProfileDescription: Sendable, Hashable {
    /// The profile's description tag (`desc`), in English where it has several languages.
    public var text: String?
    /// The colour space the profile describes: `"RGB"`, `"GRAY"`, `"CMYK"` or another
    /// ICC colour-space signature, trimmed.
    public var colorSpace: String

    /// Reads the profile in `profile`; `nil` when Little CMS cannot open it.
    public init?(profile: UnsafeRawBufferPointer) {
        guard let base = profile.baseAddress, profile.count >= 132, profile.count <= Int(UInt32.max),
            let handle = cmsOpenProfileFromMem(base, cmsUInt32Number(profile.count))
        else { return nil }
        defer { cmsCloseProfile(handle) }
        let signature = cmsGetColorSpace(handle).rawValue
        let letters = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: signature >> $0) }
        colorSpace = String(decoding: letters, as: UTF8.self).trimmingSpaces()
        let needed = cmsGetProfileInfoASCII(handle, cmsInfoDescription, "en", "US", nil, 0)
        guard needed > 1, needed <= 4096 else { return }
        var buffer = [CChar](repeating: 0, count: Int(needed))
        cmsGetProfileInfoASCII(handle, cmsInfoDescription, "en", "US", &buffer, needed)
        let description = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        text = description.isEmpty ? nil : description
    }
}

extension String {
    /// The string without trailing spaces (ICC signatures pad with them).
    fileprivate func trimmingSpaces() -> String {
        String(self.reversed().drop { $0 == " " }.reversed())
    }
}
#endif
