/// Why an ``ImageServerConfiguration`` is refused: ``ImageServerConfiguration/validate()``
/// throws it, and ``ImageServer/run(onRunning:onMetricsRunning:)`` before it listens.
public enum ImageServerConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A signing key — ``ImageServerConfiguration/signingKey`` or one of the
    /// ``ImageServerConfiguration/additionalSigners`` — is empty, so anyone could sign.
    case emptySigningKey
    /// Unsigned URLs (`_`, ``ImageServerConfiguration/allowsUnsignedURLs``) are accepted
    /// beside a signing key, which would then protect nothing.
    case unsignedURLsWithSigningKey
    /// A fallback is answered with a status that is neither 200 nor an error (400 to 599).
    case badFallbackStatus(Int)
    /// A fallback is given for a preset that is not configured.
    case fallbackForUnknownPreset(String)
    /// No URL dialect is served (``ImageServerConfiguration/dialects`` is empty).
    case noDialect
    /// imgproxy's keys and salts (``ImgproxyConfiguration/keys``,
    /// ``ImgproxyConfiguration/salts``) are not in pairs, or one is empty.
    case badImgproxyKeys
    /// imgproxy's signature size is not 1 to 32 bytes.
    case badImgproxySignatureSize(Int)
    /// An imgproxy preset is not options written `name:arguments/…`.
    case badImgproxyPreset(String)
    /// ``ImageServerConfiguration/onlyPresets`` is on while imgproxy's URLs are answered
    /// without ``ImgproxyConfiguration/onlyPresets``, which would let them ask for any
    /// processing.
    case onlyPresetsWithoutImgproxyPresets
    /// thumbor's URLs are answered with neither a security key
    /// (``ThumborConfiguration/securityKey``, not empty) nor `unsafe` URLs allowed.
    case thumborWithoutKey
    /// ``ImageServerConfiguration/onlyPresets`` is on while thumbor's URLs, which name no
    /// preset, are answered.
    case onlyPresetsWithThumbor

    /// The refusal in a sentence.
    public var description: String {
        switch self {
        case .emptySigningKey: "a signing key is empty"
        case .unsignedURLsWithSigningKey: "unsigned URLs cannot be accepted together with a signing key; give one or the other"
        case .badFallbackStatus(let status): "a fallback cannot be answered with status \(status); use 200 or 400 to 599"
        case .fallbackForUnknownPreset(let name): "a fallback is given for the preset \(name), which is not configured"
        case .noDialect: "no URL dialect is served"
        case .badImgproxyKeys: "imgproxy's keys and salts must come in pairs, none empty"
        case .badImgproxySignatureSize(let size): "imgproxy's signature size is \(size); it must be 1 to 32 bytes"
        case .badImgproxyPreset(let name): "the imgproxy preset \(name) is not options written name:arguments/…"
        case .thumborWithoutKey: "thumbor's URLs are answered with neither a security key nor unsafe URLs (SECURITY_KEY, ALLOW_UNSAFE_URL)"
        case .onlyPresetsWithThumbor: "only presets are served, but thumbor's URLs name no preset"
        case .onlyPresetsWithoutImgproxyPresets: "only presets are served, but imgproxy's URLs are not limited to presets (IMGPROXY_ONLY_PRESETS)"
        }
    }
}
