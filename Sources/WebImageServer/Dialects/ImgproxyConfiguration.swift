import WebImage

/// How the server answers imgproxy's URLs when ``ImageServerDialect/imgproxy`` is served:
/// the keys, salts and signature size imgproxy signs with, its presets and its defaults.
/// `webimage serve` fills it from imgproxy's own `IMGPROXY_*` environment variables.
public struct ImgproxyConfiguration: Sendable {
    /// The HMAC-SHA256 keys, each paired with the salt at the same index in ``salts``
    /// (imgproxy's `IMGPROXY_KEY`/`IMGPROXY_KEYS`); empty accepts any signature text, as
    /// imgproxy does when it has no key.
    public var keys: [[UInt8]] = []
    /// The salts, one for each key (`IMGPROXY_SALT`/`IMGPROXY_SALTS`).
    public var salts: [[UInt8]] = []
    /// How many bytes of the MAC the signature carries, 1 to 32
    /// (`IMGPROXY_SIGNATURE_SIZE`).
    public var signatureSize = 32
    /// Presets by name, each in imgproxy's own form: options separated by `/`, such as
    /// `rs:fill:300:300/q:70` (`IMGPROXY_PRESETS`). A preset named `default` applies to
    /// every request before its own options.
    public var presets: [String: String] = [:]
    /// Whether the path names only presets, `/<signature>/<preset>:<preset>/…`
    /// (`IMGPROXY_ONLY_PRESETS`).
    public var onlyPresets = false
    /// The quality written when the URL names none, 1 to 100 (`IMGPROXY_QUALITY`).
    public var quality = 80
    /// The quality by output format, when the URL names the format but no quality
    /// (`IMGPROXY_FORMAT_QUALITY`); imgproxy's defaults are WebP 79 and AVIF 63.
    public var formatQualities: [ImageFormat: Int] = [.webp: 79, .avif: 63]
    /// Answer WebP to a client whose `Accept` names it when the URL names no format
    /// (`IMGPROXY_ENABLE_WEBP_DETECTION`, `IMGPROXY_AUTO_WEBP`).
    public var autoWebP = false
    /// Answer WebP to a client whose `Accept` names it even when the URL names another
    /// format (`IMGPROXY_ENFORCE_WEBP`).
    public var enforceWebP = false
    /// Answer AVIF to a client whose `Accept` names it when the URL names no format
    /// (`IMGPROXY_ENABLE_AVIF_DETECTION`, `IMGPROXY_AUTO_AVIF`); AVIF is preferred over WebP.
    public var autoAVIF = false
    /// Answer AVIF to a client whose `Accept` names it even when the URL names another
    /// format (`IMGPROXY_ENFORCE_AVIF`).
    public var enforceAVIF = false
    /// The URL prefixes a source must start with; empty allows any
    /// (`IMGPROXY_ALLOWED_SOURCES`). The server's own host and address rules apply as well.
    public var allowedSources: [String] = []
    /// Put in front of every source URL that does not already start with it
    /// (`IMGPROXY_BASE_URL`).
    public var baseURL = ""
    /// The name of the configured watermark (``ImageServerConfiguration/watermarks``) that
    /// imgproxy's `watermark`/`wm` option draws (`IMGPROXY_WATERMARK_PATH` loads it).
    public static let watermarkName = "imgproxy"

    /// A configuration with imgproxy's defaults and no key.
    public init() {}
}
