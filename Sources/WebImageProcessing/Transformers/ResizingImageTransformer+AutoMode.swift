import WebImageCore

extension ResizingImageTransformer.ContentMode {
    /// The mode a picture of `source` is resized by into a box of `width` × `height`:
    /// ``auto`` becomes ``aspectFill`` when the two have the same orientation (both wider
    /// than tall, or both not) and ``inside`` otherwise; every other mode is itself.
    public func resolved(source: PixelSize, width: Int, height: Int) -> Self {
        guard self == .auto else { return self }
        return (source.width > source.height) == (width > height) ? .aspectFill : .inside
    }
}
