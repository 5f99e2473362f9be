import WebImageCore

/// How an overlay is sized against the image it is drawn on: fitted, its aspect kept, into
/// a box that is a fraction of the image's width and height, larger or smaller than its own
/// size. A side without a fraction follows from the other through the overlay's aspect.
public struct OverlayScale: Sendable, Equatable {
    /// The box's width as a fraction of the image's; `nil` to follow from ``height``.
    public var width: Double?
    /// The box's height as a fraction of the image's; `nil` to follow from ``width``.
    public var height: Double?

    /// A box of `width` and `height` of the image's sides (at least one of them set).
    public init(width: Double?, height: Double?) {
        self.width = width
        self.height = height
    }

    /// The size an overlay of `overlay` takes on an image of `image`: the largest that fits
    /// the box with the overlay's aspect, each side rounded half to even (as thumbor's
    /// watermark is sized) and at least 1; `overlay` itself when no fraction is positive.
    public func size(of overlay: PixelSize, on image: PixelSize) -> PixelSize {
        let ownWidth = Double(overlay.width), ownHeight = Double(overlay.height)
        guard ownWidth > 0, ownHeight > 0 else { return overlay }
        let fractionX = width.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        let fractionY = height.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        guard fractionX != nil || fractionY != nil else { return overlay }
        let boxWidth = fractionX.map { Double(image.width) * $0 } ?? ownWidth * Double(image.height) * fractionY! / ownHeight
        let boxHeight = fractionY.map { Double(image.height) * $0 } ?? ownHeight * boxWidth / ownWidth
        let width: Double, height: Double
        if ownWidth / boxWidth >= ownHeight / boxHeight {
            (width, height) = (boxWidth, ownHeight * boxWidth / ownWidth)
        } else {
            (width, height) = (ownWidth * boxHeight / ownHeight, boxHeight)
        }
        /// A side rounded, held to 1…2³⁰ so that a huge fraction stays a number the budget refuses.
        func side(_ value: Double) -> Int { Int(min(max(1, value.rounded(.toNearestOrEven)), Double(1 << 30))) }
        return PixelSize(width: side(width), height: side(height))
    }
}
