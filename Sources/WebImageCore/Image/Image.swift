/// A decoded image: one or more full-size frames ready to draw, plus what the source said
/// about them.
///
/// `Image` is an immutable reference type, so caches and callers share one copy of the
/// pixels and a memory-cache hit costs no copy. Width and height are as displayed:
/// the decoder has already applied the EXIF orientation.
public final class Image: Sendable {
    /// The frames, in display order; a still image has one.
    public let frames: [ImageFrame]
    /// How many times an animation plays; 0 means forever.
    public let loopCount: Int
    /// Pixels per point: 1, 2 or 3 (from `@2x.` / `@3x.` in the file name or cache key).
    public let scale: Double
    /// The orientation the source declared; already applied to ``frames``.
    public let orientation: ImageOrientation
    /// The format the image was decoded from (``ImageFormat/undefined`` for images built in code).
    public let format: ImageFormat
    /// Whether the source carries an alpha channel that is used.
    public let hasAlpha: Bool
    /// The animation this image stands for when it was decoded with
    /// ``ImageDecodeOptions/decodesFramesOnDemand``: ``frames`` then holds only its poster,
    /// and the other frames are decoded as they are played.
    public let animation: AnimatedImage?
    /// The ICC profile the source embeds, which the pixels are in; `nil` for sRGB (or a
    /// source that says nothing). See ``ColorProfile``.
    public let colorProfile: ColorProfile?
    /// The HDR gain map the source carries (an Ultra HDR JPEG's), upright and in step with
    /// ``frames``; `nil` for most images. See ``GainMap``.
    public let gainMap: GainMap?

    /// Creates an image from frames.
    ///
    /// - Precondition: `frames` is not empty and every frame has the first frame's size
    ///   and pixel format.
    public init(
        frames: [ImageFrame],
        loopCount: Int = 0,
        scale: Double = 1,
        orientation: ImageOrientation = .up,
        format: ImageFormat = .undefined,
        hasAlpha: Bool? = nil,
        colorProfile: ColorProfile? = nil,
        gainMap: GainMap? = nil
    ) {
        precondition(!frames.isEmpty, "an image needs at least one frame")
        let first = frames[0].bitmap
        precondition(
            frames.allSatisfy { $0.bitmap.size == first.size && $0.bitmap.pixelFormat == first.pixelFormat },
            "all frames must share one size and pixel format"
        )
        self.frames = frames
        self.loopCount = max(0, loopCount)
        self.scale = scale > 0 ? scale : 1
        self.orientation = orientation
        self.format = format
        self.hasAlpha = hasAlpha ?? frames.contains { $0.bitmap.containsTransparency }
        self.colorProfile = colorProfile
        self.gainMap = gainMap
        animation = nil
    }

    /// An image standing for `animation`: its poster as the only frame, and the animation's
    /// loop count, scale and format. ``isAnimated``, ``duration`` and ``memoryCost`` describe
    /// the whole animation.
    public init(animation: AnimatedImage) {
        frames = [animation.poster]
        loopCount = animation.loopCount
        scale = animation.scale
        orientation = .up
        format = animation.format
        hasAlpha = animation.poster.bitmap.containsTransparency
        colorProfile = nil
        gainMap = nil
        self.animation = animation
    }

    /// Creates a still image from one bitmap.
    public convenience init(
        bitmap: Bitmap,
        scale: Double = 1,
        format: ImageFormat = .undefined,
        hasAlpha: Bool? = nil,
        colorProfile: ColorProfile? = nil
    ) {
        self.init(frames: [ImageFrame(bitmap: bitmap)], scale: scale, format: format, hasAlpha: hasAlpha, colorProfile: colorProfile)
    }

    /// The first frame's pixels: the still image, or the animation's poster.
    public var bitmap: Bitmap { frames[0].bitmap }

    /// Width in pixels, as displayed.
    public var pixelWidth: Int { bitmap.width }

    /// Height in pixels, as displayed.
    public var pixelHeight: Int { bitmap.height }

    /// Size in pixels, as displayed.
    public var pixelSize: PixelSize { bitmap.size }

    /// Size in points: pixels divided by ``scale``.
    public var size: (width: Double, height: Double) {
        (Double(pixelWidth) / scale, Double(pixelHeight) / scale)
    }

    /// Bits per colour channel of the pixels (8, or 16 for 16-bit PNG).
    public var bitDepth: Int { bitmap.pixelFormat.bitsPerComponent }

    /// Whether the image has more than one frame (decoded, or in its ``animation``).
    public var isAnimated: Bool { frames.count > 1 || animation != nil }

    /// Seconds one pass of the animation takes (0 for a still image).
    public var duration: Double { animation?.duration ?? frames.reduce(0) { $0 + $1.duration } }

    /// Bytes of memory held: the pixels of all frames and of the ``gainMap``, or for an
    /// image standing for an ``animation``, the animation's cost. What a memory cache charges.
    public var memoryCost: Int {
        animation?.memoryCost ?? frames.reduce(gainMap?.bitmap.byteCount ?? 0) { $0 + $1.bitmap.byteCount }
    }

    /// The same pixels with another scale (an ``animation`` is kept, its frames unscaled).
    public func withScale(_ scale: Double) -> Image {
        Image(
            frames: frames, loopCount: loopCount, scale: scale, orientation: orientation, format: format, hasAlpha: hasAlpha,
            animation: animation, colorProfile: colorProfile, gainMap: gainMap)
    }

    /// The same pixels carrying `profile` instead of ``colorProfile`` (no conversion).
    public func withColorProfile(_ profile: ColorProfile?) -> Image {
        Image(
            frames: frames, loopCount: loopCount, scale: scale, orientation: orientation, format: format, hasAlpha: hasAlpha,
            animation: animation, colorProfile: profile, gainMap: gainMap)
    }

    /// The same pixels carrying `gainMap` instead of ``gainMap``.
    public func withGainMap(_ gainMap: GainMap?) -> Image {
        Image(
            frames: frames, loopCount: loopCount, scale: scale, orientation: orientation, format: format, hasAlpha: hasAlpha,
            animation: animation, colorProfile: colorProfile, gainMap: gainMap)
    }

    /// The same image marked as decoded from `format`: how the manager keeps the source's
    /// format on a transformer's output that names none.
    public func withFormat(_ format: ImageFormat) -> Image {
        Image(
            frames: frames, loopCount: loopCount, scale: scale, orientation: orientation, format: format, hasAlpha: hasAlpha,
            animation: animation, colorProfile: colorProfile, gainMap: gainMap)
    }

    private init(
        frames: [ImageFrame], loopCount: Int, scale: Double, orientation: ImageOrientation,
        format: ImageFormat, hasAlpha: Bool, animation: AnimatedImage?, colorProfile: ColorProfile?, gainMap: GainMap?
    ) {
        self.frames = frames
        self.loopCount = loopCount
        self.scale = scale > 0 ? scale : 1
        self.orientation = orientation
        self.format = format
        self.hasAlpha = hasAlpha
        self.animation = animation
        self.colorProfile = colorProfile
        self.gainMap = gainMap
    }

    /// The scale a file name or cache key asks for: 2 for `…@2x.png`, 3 for `…@3x.png`, else 1.
    ///
    /// Only the last path component counts, before any query or fragment.
    public static func scale(forKey key: String) -> Double {
        let path = key.prefix { $0 != "?" && $0 != "#" }
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? path[...]
        if name.contains("@3x.") { return 3 }
        if name.contains("@2x.") { return 2 }
        return 1
    }
}
