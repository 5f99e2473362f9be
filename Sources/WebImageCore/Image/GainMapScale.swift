/// How a gain map's pixels relate to its primary image's: the map's width and height
/// divided by the primary's. Turns a rectangle or size of the primary into the map's.
public struct GainMapScale: Sendable, Hashable {
    /// Map pixels per primary pixel across.
    public let horizontal: Double
    /// Map pixels per primary pixel down.
    public let vertical: Double

    /// The scale of a map of `map` pixels over a primary of `primary` pixels.
    public init(map: PixelSize, primary: PixelSize) {
        horizontal = Double(map.width) / Double(max(1, primary.width))
        vertical = Double(map.height) / Double(max(1, primary.height))
    }

    /// The map size that stands for a primary of `size` (at least 1×1).
    public func size(_ size: PixelSize) -> PixelSize {
        PixelSize(
            width: max(1, Int((Double(size.width) * horizontal).rounded())),
            height: max(1, Int((Double(size.height) * vertical).rounded())))
    }

    /// The map's rectangle covering the primary's rectangle at (`x`, `y`) of `size`: its
    /// origin and size, the edges rounded outwards, at least 1×1.
    public func rectangle(x: Int, y: Int, size: PixelSize) -> (x: Int, y: Int, size: PixelSize) {
        let left = Int((Double(x) * horizontal).rounded(.down))
        let top = Int((Double(y) * vertical).rounded(.down))
        let right = max(left + 1, Int((Double(x + size.width) * horizontal).rounded(.up)))
        let bottom = max(top + 1, Int((Double(y + size.height) * vertical).rounded(.up)))
        return (left, top, PixelSize(width: right - left, height: bottom - top))
    }

    /// The map's distance standing for `length` primary pixels across (rounded).
    public func across(_ length: Int) -> Int { Int((Double(length) * horizontal).rounded()) }

    /// The map's distance standing for `length` primary pixels down (rounded).
    public func down(_ length: Int) -> Int { Int((Double(length) * vertical).rounded()) }
}
