/// What a decoder should produce: all frames or one, full size or smaller, and the
/// limits that protect memory from hostile input.
public struct ImageDecodeOptions: Sendable, Hashable {
    /// The default pixel limit for one frame: 2²⁷ (134 megapixels), room for a 100 MP photo.
    public static let defaultMaxPixelCount = 1 << 27
    /// The default limit for the pixel memory of all frames together: 1 GiB.
    public static let defaultMaxTotalBytes = 1 << 30
    /// The default limit for one decompressed ancillary chunk (text, ICC, EXIF): 4 MiB.
    public static let defaultMaxChunkBytes = 4 << 20
    /// The default limit for the work of an animation, frames × canvas pixels: 2³⁰, for
    /// example 256 frames of 2048×2048 or 1,000 frames of 1024×1024.
    public static let defaultMaxAnimationWork = 1 << 30
    /// The default limit for the frames of an animation: 10,000.
    public static let defaultMaxFrameCount = 10_000

    /// Decode only the first frame of an animation.
    public var firstFrameOnly = false
    /// Keep an animation's bytes and decode its frames as they are played: the image holds
    /// its poster and an ``AnimatedImage`` (``Image/animation``) instead of every frame.
    /// Applies to coders that decode frame by frame (GIF, APNG, WebP); still images, and
    /// ``firstFrameOnly``, decode as usual.
    public var decodesFramesOnDemand = false
    /// With ``decodesFramesOnDemand``: an animation decoded whole does not do. A cache
    /// treats a memory entry holding one as a miss and decodes its bytes again
    /// (SDWebImage's `matchAnimatedImageClass`). Still images answer as usual.
    public var requiresFramesOnDemand = false
    /// Decode to fit this size (in pixels, as displayed) instead of the full size.
    /// Never scales up.
    public var thumbnailPixelSize: PixelSize?
    /// With ``thumbnailPixelSize``: keep the aspect ratio and fit inside the box (`true`),
    /// or fill the box exactly (`false`).
    public var preserveAspectRatio = true
    /// With ``thumbnailPixelSize`` and ``preserveAspectRatio``: scale to the smallest size
    /// that covers the box (each side at least the box's, as an aspect-fill resize needs
    /// before it crops) instead of the largest that fits inside it. Never scales up.
    public var coversThumbnailBox = false
    /// Scale every frame down, keeping the aspect ratio, until the pixel memory of all
    /// frames fits in this many bytes.
    public var scaleDownLimitBytes: Int?
    /// The scale given to the decoded image (pixels per point); 1 when `nil`.
    public var scaleFactor: Double?
    /// The largest frame, in pixels, that may be allocated; larger input is refused with
    /// ``ImageError/Code/imageTooLarge`` before any pixel memory is allocated.
    public var maxPixelCount = ImageDecodeOptions.defaultMaxPixelCount
    /// The largest pixel memory all frames together may take.
    public var maxTotalBytes = ImageDecodeOptions.defaultMaxTotalBytes
    /// The largest decompressed size of one ancillary chunk (PNG text, ICC profiles).
    public var maxChunkBytes = ImageDecodeOptions.defaultMaxChunkBytes
    /// The most work an animation may cost: its frame count times its canvas's pixels.
    /// Every frame is composed on the whole canvas, whatever the output size, so a small
    /// file of many frames on a large canvas is refused with
    /// ``ImageError/Code/imageTooLarge`` before the work starts.
    public var maxAnimationWork = ImageDecodeOptions.defaultMaxAnimationWork
    /// The most frames an animation may have; more are refused with
    /// ``ImageError/Code/imageTooLarge``.
    public var maxFrameCount = ImageDecodeOptions.defaultMaxFrameCount
    /// Settings for particular coders, passed through from the request untouched (SDWebImage's
    /// `imageDecodeOptions`); a coder reads the keys it declares and ignores the others.
    public var coderOptions = ImageCoderOptions()

    /// Full-size decoding of every frame with the default limits.
    public init() {}

    /// Options with the most used fields set.
    public init(
        firstFrameOnly: Bool = false,
        thumbnailPixelSize: PixelSize? = nil,
        preserveAspectRatio: Bool = true,
        scaleDownLimitBytes: Int? = nil,
        scaleFactor: Double? = nil
    ) {
        self.firstFrameOnly = firstFrameOnly
        self.thumbnailPixelSize = thumbnailPixelSize
        self.preserveAspectRatio = preserveAspectRatio
        self.scaleDownLimitBytes = scaleDownLimitBytes
        self.scaleFactor = scaleFactor
    }
}
