import WebImageCore

/// Resizes every frame: to a width, a height, or a box with a content mode, as
/// SDWebImage's resizing transformer does.
public struct ResizingImageTransformer: ImageTransformer {
    /// How the picture is placed in a box of the requested width and height.
    public enum ContentMode: String, Sendable, Hashable, CaseIterable {
        /// Stretched to exactly the box, ignoring the aspect ratio (SDWebImage's `fill`;
        /// `stretch` in a transform spec).
        case fill
        /// Scaled to fit inside the box, keeping the aspect ratio, and centred on a canvas
        /// of exactly the box's size (`fit` in a transform spec).
        case aspectFit
        /// Scaled to cover the box, keeping the aspect ratio, and cropped to exactly the
        /// box's size around the centre (`fill` in a transform spec).
        case aspectFill
        /// Scaled to fit inside the box, keeping the aspect ratio, with no canvas: the result
        /// is the scaled picture itself, so a 3:2 photo in a square box comes out 3:2, with
        /// no bars and no alpha added (imgproxy's `rs:fit`, thumbor's `fit-in`; `inside` in a
        /// transform spec).
        case inside
        /// ``aspectFill`` when the picture and the box have the same orientation (both
        /// landscape, or both not), ``inside`` otherwise (imgproxy's `rs:auto`; `auto` in a
        /// transform spec).
        case auto
        /// Scaled to cover the box, keeping the aspect ratio, with nothing cropped: the
        /// result is the scaled picture itself, one side the box's and the other at least
        /// the box's (thumbor's `full-fit-in`; `outside` in a transform spec).
        case outside
    }

    /// The requested width in pixels; `nil` to follow from the height and the aspect ratio.
    public var width: Int?
    /// The requested height in pixels; `nil` to follow from the width and the aspect ratio.
    public var height: Int?
    /// How the picture is placed when both ``width`` and ``height`` are given.
    public var contentMode: ContentMode
    /// Whether a picture smaller than requested is scaled up; when `false` it keeps its
    /// size (and, with ``ContentMode/aspectFit``, sits in the middle of the canvas).
    public var allowsEnlarging: Bool
    /// The colour of the canvas around an aspect-fit picture (clear by default).
    public var background: RGBA8
    /// Where an aspect-fill resize keeps its box in the scaled picture (the centre by
    /// default; a focus point keeps that point as central as the edges allow).
    public var anchor: CropAnchor = .gravity(.center)
    /// Whether the box is turned a quarter when its orientation is not the picture's: a
    /// 100×200 box is read as 200×100 for a landscape picture, and a 200×100 box as 100×200
    /// for a portrait one; a square picture or box is never turned (thumbor's
    /// `adaptive-fit-in`; `adaptive` in a transform spec).
    public var turnsBoxToPicture = false
    /// Whether a side that follows from the aspect ratio (only one side requested) is
    /// rounded half to even, from the requested side times the source's other side over
    /// the source's side, as thumbor rounds it: 160×120 at a width of 150 is 150×112, not
    /// 150×113 (`halfeven` in a transform spec).
    public var roundsHalvesToEven = false

    /// Creates a transformer that resizes into `size` with `contentMode`.
    public init(
        size: PixelSize, contentMode: ContentMode = .aspectFit, allowsEnlarging: Bool = true, background: RGBA8 = .clear
    ) {
        self.init(
            width: size.width, height: size.height, contentMode: contentMode,
            allowsEnlarging: allowsEnlarging, background: background)
    }

    /// Creates a transformer from a width, a height or both; with one of them, the other
    /// follows from the aspect ratio and `contentMode` does not matter.
    public init(
        width: Int? = nil, height: Int? = nil, contentMode: ContentMode = .aspectFit,
        allowsEnlarging: Bool = true, background: RGBA8 = .clear
    ) {
        self.width = width
        self.height = height
        self.contentMode = contentMode
        self.allowsEnlarging = allowsEnlarging
        self.background = background
    }

    /// `resize-WxH-MODE` (an empty side for one left to the aspect ratio), then
    /// `-noenlarge` and `-bgRRGGBBAA` when they apply.
    public var key: String {
        var key = "resize-\(width.map(String.init) ?? "")x\(height.map(String.init) ?? "")"
        switch contentMode {
        case .fill: key += "-stretch"
        case .aspectFit: key += "-fit"
        case .aspectFill: key += "-fill"
        case .inside: key += "-inside"
        case .auto: key += "-auto"
        case .outside: key += "-outside"
        }
        if turnsBoxToPicture { key += "-adaptive" }
        if roundsHalvesToEven { key += "-halfeven" }
        if !allowsEnlarging { key += "-noenlarge" }
        if background != .clear { key += "-bg\(background.hex)" }
        if anchor != .gravity(.center) { key += "-\(anchor.keyPart)" }
        return key
    }

    /// The image resized; `nil` when it already has the size asked for, when the
    /// requested size is not positive, or when the resampling cannot get the memory it
    /// needs.
    public func transform(_ image: Image) -> Image? {
        transform(image, planningFrom: image.pixelSize)
    }

    /// `image`, a reduced copy of a `picture`-sized image (at least the size this resize
    /// scales `picture` to, on each side), resized as `picture` would be: the plan and an
    /// anchor's point are `picture`'s, so the result has the size `picture`'s resize has,
    /// made from fewer pixels.
    package func transform(_ image: Image, planningFrom picture: PixelSize) -> Image? {
        guard let plan = plan(for: picture) else { return nil }
        let anchor = anchor.inPicture(of: picture)
        // One window for every frame: a smart crop looks at the first.
        var window: (x: Int, y: Int)?
        let resized = try? image.replacingFrames { bitmap throws(ImageError) in
            var picture = try bitmap.resized(to: plan.scaled)
            if picture.size != plan.canvas {
                let covers = picture.width >= plan.canvas.width && picture.height >= plan.canvas.height
                if covers {
                    let origin: (x: Int, y: Int)
                    if let window { origin = window } else { origin = try anchor.origin(of: plan.canvas, in: picture) }
                    window = origin
                    picture = try picture.cropped(x: origin.x, y: origin.y, size: plan.canvas)
                } else {
                    let origin = ImageGravity.center.origin(of: picture.size, in: plan.canvas)
                    picture = try Bitmap.filled(plan.canvas, format: picture.pixelFormat, with: background)
                        .drawing(picture, atX: origin.x, y: origin.y)
                }
            }
            return picture
        }
        return resized?.carryingResizedGainMap(of: image, scaled: plan.scaled, canvas: plan.canvas, window: window)
    }

    /// Decode options that make a coder produce the picture this resize would scale to
    /// (never larger than the source), so that the resize itself then only crops or pads;
    /// with `swappingSides`, for a picture turned a quarter before the resize.
    /// A box turned to the picture is read as a square of its longer side, which holds
    /// either turn. A window placed at a point of the source, and a side rounded half to
    /// even from the source's sides, need the source's own size: those resizes decode the
    /// whole picture (a coder's reduced decode rounds the side its own way).
    func decodeOptions(swappingSides: Bool) -> ImageDecodeOptions {
        guard (width ?? 1) > 0, (height ?? 1) > 0 else { return ImageDecodeOptions() }
        if case .point = anchor { return ImageDecodeOptions() }
        if roundsHalvesToEven, width == nil || height == nil { return ImageDecodeOptions() }
        let unbounded = Int(Int32.max)
        var options: ImageDecodeOptions
        var (width, height) = (width, height)
        if turnsBoxToPicture, let w = width, let h = height { (width, height) = (max(w, h), max(w, h)) }
        switch (width, height, contentMode) {
        case let (width?, nil, _):
            options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: width, height: unbounded))
        case let (nil, height?, _):
            options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: unbounded, height: height))
        case let (width?, height?, .aspectFit), let (width?, height?, .inside):
            options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: width, height: height))
        case let (width?, height?, .aspectFill), let (width?, height?, .auto), let (width?, height?, .outside):
            // An auto resize decodes to cover the box: the orientation, and so the mode,
            // stay those of the source.
            options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: width, height: height))
            options.coversThumbnailBox = true
        case let (width?, height?, .fill):
            options = ImageDecodeOptions(
                thumbnailPixelSize: PixelSize(width: width, height: height), preserveAspectRatio: false)
        case (nil, nil, _):
            return ImageDecodeOptions()
        }
        if swappingSides, let box = options.thumbnailPixelSize {
            options.thumbnailPixelSize = box.transposed
        }
        return options
    }

    /// The size the picture is scaled to and the size of the result, for a `source`-sized
    /// picture; `nil` when the resize leaves it as it is or cannot apply. Sides are held
    /// below 10¹² pixels, so that an absurd enlargement is a size a budget refuses rather
    /// than an overflow.
    package func plan(for source: PixelSize) -> (scaled: PixelSize, canvas: PixelSize)? {
        guard source.width > 0, source.height > 0, (width ?? 1) > 0, (height ?? 1) > 0, width != nil || height != nil
        else { return nil }
        var (width, height) = (width, height)
        if turnsBoxToPicture, let w = width, let h = height,
            (source.width < source.height && w > h) || (source.width > source.height && w < h)
        {
            (width, height) = (h, w)
        }
        let scaleX = width.map { Double($0) / Double(source.width) }
        let scaleY = height.map { Double($0) / Double(source.height) }
        func side(_ value: Double) -> Int { max(1, Int(min(value.rounded(), 1e12))) }
        func scaled(_ factor: Double) -> PixelSize {
            let factor = allowsEnlarging ? factor : min(factor, 1)
            return PixelSize(width: side(Double(source.width) * factor), height: side(Double(source.height) * factor))
        }
        /// thumbor's proportional side: `requested × other ÷ side`, a half to even.
        func proportional(_ requested: Int, _ other: Int, _ side: Int) -> Int {
            max(1, Int(min((Double(requested) * Double(other) / Double(side)).rounded(.toNearestOrEven), 1e12)))
        }
        let result: (scaled: PixelSize, canvas: PixelSize)
        switch (scaleX, scaleY) {
        case let (x?, y?):
            switch contentMode.resolved(source: source, width: width!, height: height!) {
            case .fill:
                let size =
                    allowsEnlarging
                    ? PixelSize(width: width!, height: height!)
                    : PixelSize(width: min(width!, source.width), height: min(height!, source.height))
                result = (size, size)
            case .aspectFit:
                result = (scaled(min(x, y)), PixelSize(width: width!, height: height!))
            case .inside:
                let size = scaled(min(x, y))
                result = (size, size)
            case .outside:
                let size = scaled(max(x, y))
                result = (size, size)
            case .aspectFill, .auto:
                let cover = scaled(max(x, y))
                result = (cover, PixelSize(width: min(width!, cover.width), height: min(height!, cover.height)))
            }
        case let (x?, nil):
            var size = scaled(x)
            if roundsHalvesToEven, allowsEnlarging || x <= 1 {
                size = PixelSize(width: width!, height: proportional(width!, source.height, source.width))
            }
            result = (size, size)
        case let (nil, y?):
            var size = scaled(y)
            if roundsHalvesToEven, allowsEnlarging || y <= 1 {
                size = PixelSize(width: proportional(height!, source.width, source.height), height: height!)
            }
            result = (size, size)
        case (nil, nil):
            return nil
        }
        return result.scaled == source && result.canvas == source ? nil : result
    }
}
