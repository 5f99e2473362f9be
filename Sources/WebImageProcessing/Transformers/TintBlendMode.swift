import WebImageCore

/// How a tint colour combines with the picture's colour.
public enum TintBlendMode: String, Sendable, Hashable, CaseIterable {
    /// The tint replaces the colour (a silhouette when the tint is opaque).
    case normal
    /// The colours multiply: the tint darkens.
    case multiply
    /// The inverted colours multiply: the tint lightens.
    case screen
    /// Multiply in the shadows, screen in the highlights: contrast is kept.
    case overlay

    /// `tint`'s colour blended with `picture`'s, straight colour from 0 to 1.
    @inline(__always)
    func blend(_ picture: SIMD4<Float>, _ tint: SIMD4<Float>) -> SIMD4<Float> {
        switch self {
        case .normal:
            return tint
        case .multiply:
            return picture * tint
        case .screen:
            return 1 - (1 - picture) * (1 - tint)
        case .overlay:
            let low = 2 * picture * tint
            let high = 1 - 2 * (1 - picture) * (1 - tint)
            return low.replacing(with: high, where: picture .>= 0.5)
        }
    }
}
