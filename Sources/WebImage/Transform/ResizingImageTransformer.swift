/// Resizes every frame to fit inside (or fill exactly) a size in pixels.
public struct ResizingImageTransformer: ImageTransformer {
    /// The size to fit into.
    public var size: PixelSize
    /// Keep the aspect ratio and fit inside ``size`` (`true`), or stretch to it (`false`).
    public var preservesAspectRatio: Bool

    /// Creates a transformer that resizes to `size`.
    public init(size: PixelSize, preservesAspectRatio: Bool = true) {
        self.size = size
        self.preservesAspectRatio = preservesAspectRatio
    }

    /// `resize-WxH` plus `-fit` or `-fill`.
    public var key: String {
        "resize-\(size.width)x\(size.height)-\(preservesAspectRatio ? "fit" : "fill")"
    }

    /// The image resized; `nil` when it already has the target size.
    public func transform(_ image: Image) -> Image? {
        guard size.width > 0, size.height > 0 else { return nil }
        var target = size
        if preservesAspectRatio {
            let ratio = min(Double(size.width) / Double(image.pixelWidth), Double(size.height) / Double(image.pixelHeight))
            target = PixelSize(
                width: max(1, Int((Double(image.pixelWidth) * ratio).rounded())),
                height: max(1, Int((Double(image.pixelHeight) * ratio).rounded()))
            )
        }
        guard target != image.pixelSize else { return nil }
        return image.replacingFrames { $0.resized(to: target) }
    }
}
