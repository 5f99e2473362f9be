import WebImageCore

/// A rectangle inset from a bitmap's edges, with some corners rounded: what
/// ``RoundedCornersImageTransformer`` clips to and strokes along.
struct RoundedOutline {
    private let left: Double
    private let top: Double
    private let right: Double
    private let bottom: Double
    private let radius: Double
    private let corners: ImageCorners

    /// The rectangle `inset` pixels inside a `width` × `height` bitmap, its `corners`
    /// rounded by `radius` (at most half its shorter side).
    init(inset: Double, radius: Double, corners: ImageCorners, width: Double, height: Double) {
        left = inset
        top = inset
        right = width - inset
        bottom = height - inset
        self.radius = min(radius, max(0, min(right - left, bottom - top) / 2))
        self.corners = corners
    }

    /// How far inside the outline the point lies: negative outside.
    func inside(_ x: Double, _ y: Double) -> Double {
        let isLeft = x < left + radius, isTop = y < top + radius
        let isRight = x > right - radius, isBottom = y > bottom - radius
        if (isLeft || isRight) && (isTop || isBottom), corners.contains(Self.corner(left: isLeft, top: isTop)) {
            let dx = x - (isLeft ? left + radius : right - radius)
            let dy = y - (isTop ? top + radius : bottom - radius)
            return radius - (dx * dx + dy * dy).squareRoot()
        }
        return min(x - left, y - top, right - x, bottom - y)
    }

    private static func corner(left: Bool, top: Bool) -> ImageCorners {
        switch (left, top) {
        case (true, true): .topLeft
        case (false, true): .topRight
        case (true, false): .bottomLeft
        case (false, false): .bottomRight
        }
    }
}
