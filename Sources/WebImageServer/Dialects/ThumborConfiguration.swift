/// How the server answers thumbor's URLs when ``ImageServerDialect/thumbor`` is served:
/// the security key thumbor signs with, whether `unsafe` URLs are answered, and thumbor's
/// defaults. `webimage serve --thumbor-config` fills it from thumbor's own configuration
/// file.
public struct ThumborConfiguration: Sendable {
    /// The key of the HMAC-SHA1 signatures (`SECURITY_KEY`); `nil` answers only `unsafe`
    /// URLs, and a signed one 400.
    public var securityKey: [UInt8]?
    /// Whether `/unsafe/…` URLs are answered (`ALLOW_UNSAFE_URL`, on by default in
    /// thumbor).
    public var allowsUnsafeURLs = true
    /// The quality written when the URL names none, 1 to 100 (`QUALITY`).
    public var quality = 80
    /// The quality of WebP results, when set (`WEBP_QUALITY`); ``quality`` otherwise.
    public var webPQuality: Int?
    /// The quality of AVIF results, when set (`AVIF_QUALITY`); ``quality`` otherwise.
    public var avifQuality: Int?
    /// Answer WebP to a client whose `Accept` names it when the URL has no `format` filter
    /// (`AUTO_WEBP`).
    public var autoWebP = false
    /// The widest a requested width may be; a larger one is lowered to it, 0 for no limit
    /// (`MAX_WIDTH`).
    public var maxWidth = 0
    /// The tallest a requested height may be; a larger one is lowered to it, 0 for no limit
    /// (`MAX_HEIGHT`).
    public var maxHeight = 0
    /// The names of the filters answered (`FILTERS`, the last part of each module's name);
    /// a filter not listed is skipped, as thumbor skips it. thumbor's built-in list by
    /// default, ``builtInFilters``.
    public var filters = ThumborConfiguration.builtInFilters
    /// thumbor 7.8's `BUILTIN_FILTERS` (`autojpg`, `redeye` and `cover` are thumbor filters
    /// that are not in it, so a default thumbor skips them).
    public static let builtInFilters: Set<String> = [
        "background_color", "blur", "brightness", "colorize", "contrast", "convolution", "curve", "equalize", "extract_focal", "fill",
        "focal", "format", "frame", "grayscale", "max_age", "max_bytes", "no_upscale", "noise", "proportion", "quality", "rgb", "rotate",
        "round_corner", "saturation", "sharpen", "stretch", "strip_exif", "strip_icc", "upscale", "watermark",
    ]

    /// A configuration with thumbor's defaults and no key.
    public init() {}
}
