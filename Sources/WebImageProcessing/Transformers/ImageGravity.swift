import WebImageCore

/// Where a smaller picture sits inside a larger one: the centre, an edge's middle or a
/// corner.
public enum ImageGravity: String, Sendable, Hashable, CaseIterable {
    /// Centred both ways.
    case center
    /// Centred horizontally, at the top.
    case top
    /// Centred horizontally, at the bottom.
    case bottom
    /// Centred vertically, at the left.
    case left
    /// Centred vertically, at the right.
    case right
    /// The top-left corner.
    case topLeft
    /// The top-right corner.
    case topRight
    /// The bottom-left corner.
    case bottomLeft
    /// The bottom-right corner.
    case bottomRight

    /// The top-left position of `inner` placed in `outer` at this gravity (negative when
    /// `inner` is larger along that axis).
    public func origin(of inner: PixelSize, in outer: PixelSize) -> (x: Int, y: Int) {
        let spareX = outer.width - inner.width, spareY = outer.height - inner.height
        let x: Int, y: Int
        switch self {
        case .left, .topLeft, .bottomLeft: x = 0
        case .right, .topRight, .bottomRight: x = spareX
        case .center, .top, .bottom: x = spareX / 2
        }
        switch self {
        case .top, .topLeft, .topRight: y = 0
        case .bottom, .bottomLeft, .bottomRight: y = spareY
        case .center, .left, .right: y = spareY / 2
        }
        return (x, y)
    }
}
