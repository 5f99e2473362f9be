import WebImageCore

/// Several transformers applied one after the other.
public struct ImageTransformerPipeline: ImageTransformer {
    /// The transformers, in the order they run.
    public var transformers: [any ImageTransformer]

    /// Creates a pipeline.
    public init(_ transformers: [any ImageTransformer]) {
        self.transformers = transformers
    }

    /// The transformers' keys joined with `-`.
    public var key: String { transformers.map(\.key).joined(separator: "-") }

    /// The image after every transformer; `nil` when none changed it.
    public func transform(_ image: Image) -> Image? {
        var changed = false
        var current = image
        for transformer in transformers {
            if let next = transformer.transform(current) {
                current = next
                changed = true
            }
        }
        return changed ? current : nil
    }
}
