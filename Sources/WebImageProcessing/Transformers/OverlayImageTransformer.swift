import WebImageCore

/// Draws another image over every frame: a watermark or a badge, placed at a gravity,
/// moved by an offset, with an opacity; optionally sized against the image
/// (``OverlayScale``) and drawn in several copies (``OverlayTiling``).
public struct OverlayImageTransformer: ImageTransformer {
    /// The image drawn on top (its first frame), at its own size unless ``scale`` sizes it.
    public var overlay: Image
    /// Names the overlay in ``key``, so that two overlays give two cache entries (for
    /// example its file name or URL).
    public var name: String
    /// Where the overlay sits on the image.
    public var gravity: ImageGravity
    /// Pixels the overlay moves from its gravity position, inwards for an edge or corner
    /// gravity (right for ``ImageGravity/center``).
    public var offsetX: Int
    /// Pixels the overlay moves from its gravity position, inwards for an edge or corner
    /// gravity (down for ``ImageGravity/center``).
    public var offsetY: Int
    /// A move along x added to ``offsetX``, in percent of the image's width (rounded to the
    /// nearest pixel, halves away from zero).
    public var offsetXPercent: Double = 0
    /// A move along y added to ``offsetY``, in percent of the image's height.
    public var offsetYPercent: Double = 0
    /// How opaque the overlay is, from 0 (invisible) to 1.
    public var opacity: Double
    /// The overlay's size against the image's; `nil` for its own size.
    public var scale: OverlayScale?
    /// How many copies are drawn, and where.
    public var tiling: OverlayTiling = .single

    /// Creates a transformer that draws `overlay`, known as `name`, over images.
    public init(
        overlay: Image, name: String, gravity: ImageGravity = .bottomRight,
        offsetX: Int = 0, offsetY: Int = 0, opacity: Double = 1
    ) {
        self.overlay = overlay
        self.name = name
        self.gravity = gravity
        self.offsetX = offsetX
        self.offsetY = offsetY
        self.opacity = opacity
    }

    /// `overlay-NAME-GRAVITY-X,Y-OPACITY`, with the percentages, scale and tiling when set.
    public var key: String {
        var key = "overlay-\(name)-\(gravity.rawValue)-\(offsetX),\(offsetY)-\(RoundedCornersImageTransformer.format(opacity))"
        if offsetXPercent != 0 || offsetYPercent != 0 {
            key += "-\(RoundedCornersImageTransformer.format(offsetXPercent))%,\(RoundedCornersImageTransformer.format(offsetYPercent))%"
        }
        if let scale {
            key += "-scale\(scale.width.map(RoundedCornersImageTransformer.format) ?? "")x\(scale.height.map(RoundedCornersImageTransformer.format) ?? "")"
        }
        switch tiling {
        case .single: break
        case .spread(let horizontal, let vertical): key += "-spread\(horizontal ? "x" : "")\(vertical ? "y" : "")"
        case .grid: key += "-grid"
        }
        return key
    }

    /// The size the overlay is drawn at on an image of `size`.
    public func overlaySize(on size: PixelSize) -> PixelSize {
        scale?.size(of: overlay.pixelSize, on: size) ?? overlay.pixelSize
    }

    /// The image with the overlay drawn on each frame; `nil` when the overlay is
    /// invisible or falls outside, or when it cannot be sized.
    public func transform(_ image: Image) -> Image? {
        let opacity = Float(min(max(opacity, 0), 1))
        guard opacity > 0, opacity.isFinite else { return nil }
        var top = overlay.bitmap
        let size = overlaySize(on: image.pixelSize)
        if size != top.size {
            guard let resized = try? top.resized(to: size) else { return nil }
            top = resized
        }
        if tiling == .grid { return grid(of: top, opacity: opacity, over: image) }
        let (xs, ys) = starts(of: top.size, on: image.pixelSize)
        let visibleXs = xs.filter { $0 < image.pixelWidth && $0 + top.width > 0 }
        let visibleYs = ys.filter { $0 < image.pixelHeight && $0 + top.height > 0 }
        guard !visibleXs.isEmpty, !visibleYs.isEmpty else { return nil }
        if visibleXs.count == 1, visibleYs.count == 1 {
            return image.replacingFrames { $0.drawing(top, atX: visibleXs[0], y: visibleYs[0], opacity: opacity) }
        }
        // Copies go on one clear canvas first, each already at the opacity and each over
        // the ones before, so that every frame is drawn over once.
        guard var canvas = try? Bitmap(zeroedWidth: image.pixelWidth, height: image.pixelHeight, pixelFormat: top.pixelFormat),
            var tile = try? Bitmap(zeroedWidth: top.width, height: top.height, pixelFormat: top.pixelFormat)
        else { return nil }
        tile.draw(top, atX: 0, y: 0, opacity: opacity)
        for y in visibleYs {
            for x in visibleXs { canvas.draw(tile, atX: x, y: y) }
        }
        return image.replacingFrames { $0.drawing(canvas, atX: 0, y: 0) }
    }

    /// The offsets on an image of `size`: pixels and percentages added.
    private func moves(on size: PixelSize) -> (x: Int, y: Int) {
        (
            offsetX + Int((Double(size.width) * offsetXPercent / 100).rounded(.toNearestOrAwayFromZero)),
            offsetY + Int((Double(size.height) * offsetYPercent / 100).rounded(.toNearestOrAwayFromZero))
        )
    }

    /// `image` under copies of `top` side by side (``OverlayTiling/grid``): one cell — the
    /// copy at `opacity` and the space after it — is drawn once, and the canvas over the
    /// whole image is that cell's pixels repeated, so that a tiny copy costs no more than a
    /// large one.
    private func grid(of top: Bitmap, opacity: Float, over image: Image) -> Image? {
        let (moveX, moveY) = moves(on: image.pixelSize)
        let spacing = (x: max(0, moveX), y: max(0, moveY))
        let cellWidth = top.width + spacing.x, cellHeight = top.height + spacing.y
        let (width, height) = (image.pixelWidth, image.pixelHeight)
        guard var cell = try? Bitmap(zeroedWidth: cellWidth, height: cellHeight, pixelFormat: top.pixelFormat),
            var canvas = try? Bitmap(zeroedWidth: width, height: height, pixelFormat: top.pixelFormat)
        else { return nil }
        cell.draw(top, atX: 0, y: 0, opacity: opacity)
        let bytes = top.pixelFormat.bytesPerPixel
        let (startX, startY) = (spacing.x / 2, spacing.y / 2)
        cell.pixels.withUnsafeBytes { cellBytes in
            canvas.pixels.withUnsafeMutableBytes { canvasBytes in
                for y in startY..<max(startY, height) {
                    let cellRow = (y - startY) % cellHeight * cellWidth * bytes
                    let row = y * width * bytes
                    for x in startX..<max(startX, width) {
                        let from = cellRow + (x - startX) % cellWidth * bytes
                        for byte in 0..<bytes { canvasBytes[row + x * bytes + byte] = cellBytes[from + byte] }
                    }
                }
            }
        }
        return image.replacingFrames { $0.drawing(canvas, atX: 0, y: 0) }
    }

    /// Where the copies of an overlay of `top` start on an image of `size`, along each axis.
    private func starts(of top: PixelSize, on size: PixelSize) -> (x: [Int], y: [Int]) {
        var (x, y) = gravity.origin(of: top, in: size)
        let (moveX, moveY) = moves(on: size)
        switch gravity {
        case .right, .topRight, .bottomRight: x -= moveX
        default: x += moveX
        }
        switch gravity {
        case .bottom, .bottomLeft, .bottomRight: y -= moveY
        default: y += moveY
        }
        guard case .spread(let horizontal, let vertical) = tiling else { return ([x], [y]) }
        let capped =
            horizontal && vertical
            && OverlayTiling.spreadCount(length: size.width, tile: top.width) * OverlayTiling.spreadCount(length: size.height, tile: top.height)
                > 100
        return (
            horizontal ? OverlayTiling.spreadStarts(length: size.width, tile: top.width, capped: capped) : [x],
            vertical ? OverlayTiling.spreadStarts(length: size.height, tile: top.height, capped: capped) : [y]
        )
    }
}
