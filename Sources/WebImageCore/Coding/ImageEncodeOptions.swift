/// How an encoder should write an image.
public struct ImageEncodeOptions: Sendable, Hashable {
    /// Quality for lossy formats, from 0 (smallest) to 1 (best). Lossless formats ignore it.
    /// With ``maxFileSize`` it is the highest quality tried.
    public var quality: Double = 0.9
    /// Write only the first frame of an animation.
    public var firstFrameOnly = false
    /// Ask formats that have both modes (WebP) for lossless output.
    public var lossless = false
    /// The colour an image with alpha is drawn over when it is written to a format without
    /// alpha (JPEG); `nil` keeps the coder's own choice (white, for the JPEG coder).
    public var background: RGBA8?
    /// Shrink the image, keeping its aspect ratio, to fit inside this many pixels before
    /// encoding; never enlarges.
    public var maxPixelSize: PixelSize?
    /// The largest output in bytes: a lossy format is written at the highest quality (up
    /// to ``quality``) whose output fits; a lossless format must fit as it is. An
    /// animation keeps its loop count and frame durations whatever the options.
    public var maxFileSize: Int?
    /// What happens to the colour profile the image carries: converted to sRGB and
    /// dropped (the default, as imgproxy does), or written along unchanged.
    public var colorProfile: ColorProfileHandling = .convertToSRGB
    /// The authorship the JPEG, PNG, WebP and AVIF coders write into their output — EXIF
    /// `Copyright` and `Artist`, XMP `dc:rights` — and nothing else of the source's
    /// metadata; `nil`, the default, writes none (the other coders write none either way).
    public var copyright: ImageCopyright?
    /// Whether the JPEG coder writes the image's HDR gain map (``Image/gainMap``) behind it,
    /// with an MPF index and the gain map's metadata (Ultra HDR): on by default; off
    /// writes a plain SDR JPEG. The other formats never keep a gain map.
    public var keepsGainMap = true
    /// The signal an encode made of steps reads between them: the animated encoders (GIF,
    /// APNG, WebP, AVIF, JPEG XL, multi-page TIFF) before each frame, and
    /// ``ImageCodersManager`` before each try of a ``maxFileSize`` encode. Once it is raised
    /// the encode throws ``ImageError/Code/cancelled`` at its next step; `nil`, the
    /// default, never stops one.
    public var cancellation: ImageWorkCancellation?

    /// Creates encode options.
    public init(
        quality: Double = 0.9, firstFrameOnly: Bool = false, lossless: Bool = false,
        background: RGBA8? = nil, maxPixelSize: PixelSize? = nil, maxFileSize: Int? = nil,
        colorProfile: ColorProfileHandling = .convertToSRGB, copyright: ImageCopyright? = nil
    ) {
        self.quality = min(max(quality, 0), 1)
        self.firstFrameOnly = firstFrameOnly
        self.lossless = lossless
        self.background = background
        self.maxPixelSize = maxPixelSize
        self.maxFileSize = maxFileSize
        self.colorProfile = colorProfile
        self.copyright = copyright
    }
}
