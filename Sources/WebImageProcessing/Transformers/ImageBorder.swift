import WebImageCore

/// A line drawn along the inside of an image's outline.
public struct ImageBorder: Sendable, Hashable {
    /// The line's width in pixels.
    public var width: Double
    /// The line's colour.
    public var colour: RGBA8

    /// Creates a border of `width` pixels in `colour`.
    public init(width: Double, colour: RGBA8) {
        self.width = width
        self.colour = colour
    }

    /// `-borderW-RRGGBBAA`, the border's part of a transformer key.
    var keySuffix: String { "-border\(RoundedCornersImageTransformer.format(width))-\(colour.hex)" }
}
