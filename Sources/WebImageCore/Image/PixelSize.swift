/// A size in whole pixels.
public struct PixelSize: Sendable, Hashable, CustomStringConvertible, Codable {
    /// The width in pixels.
    public var width: Int
    /// The height in pixels.
    public var height: Int

    /// Creates a size of `width` × `height` pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The number of pixels, or `nil` when the product overflows.
    public var pixelCount: Int? {
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? nil : count
    }

    /// The same size with width and height exchanged (for 90° rotations).
    public var transposed: PixelSize { PixelSize(width: height, height: width) }

    /// `W×H`.
    public var description: String { "\(width)×\(height)" }
}
