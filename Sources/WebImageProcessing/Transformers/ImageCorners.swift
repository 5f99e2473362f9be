import WebImageCore

/// A set of an image's corners.
public struct ImageCorners: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: Int

    /// Creates a set from raw bits.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// The top-left corner.
    public static let topLeft = ImageCorners(rawValue: 1 << 0)
    /// The top-right corner.
    public static let topRight = ImageCorners(rawValue: 1 << 1)
    /// The bottom-left corner.
    public static let bottomLeft = ImageCorners(rawValue: 1 << 2)
    /// The bottom-right corner.
    public static let bottomRight = ImageCorners(rawValue: 1 << 3)
    /// All four corners.
    public static let all: ImageCorners = [.topLeft, .topRight, .bottomLeft, .bottomRight]

    /// The short names used in keys and transform specs, in a fixed order.
    package static let names: [(String, ImageCorners)] = [
        ("tl", .topLeft), ("tr", .topRight), ("bl", .bottomLeft), ("br", .bottomRight),
    ]
}
