/// What the coders of an ``ImageCodersManager`` can do with one format.
public struct ImageFormatSupport: Sendable, Hashable {
    /// The format.
    public let format: ImageFormat
    /// Whether some registered coder decodes it.
    public let decodes: Bool
    /// Whether some registered coder encodes it.
    public let encodes: Bool

    /// Creates a row of the formats table.
    public init(format: ImageFormat, decodes: Bool, encodes: Bool) {
        self.format = format
        self.decodes = decodes
        self.encodes = encodes
    }
}
