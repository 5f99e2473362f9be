import WebImageCore

/// Mirrors every frame left to right, top to bottom, or both.
public struct FlippingImageTransformer: ImageTransformer {
    /// Mirror left to right.
    public var horizontal: Bool
    /// Mirror top to bottom.
    public var vertical: Bool

    /// Creates a transformer that mirrors along the axes asked for.
    public init(horizontal: Bool = false, vertical: Bool = false) {
        self.horizontal = horizontal
        self.vertical = vertical
    }

    /// `flip-h`, `flip-v` or `flip-hv`.
    public var key: String { "flip-" + (horizontal ? "h" : "") + (vertical ? "v" : "") }

    /// The image mirrored; `nil` when neither axis is asked for, or when the mirrored copy
    /// cannot get the memory it needs.
    public func transform(_ image: Image) -> Image? {
        let orientation: ImageOrientation
        switch (horizontal, vertical) {
        case (true, true): orientation = .down
        case (true, false): orientation = .upMirrored
        case (false, true): orientation = .downMirrored
        case (false, false): return nil
        }
        return (try? image.replacingFrames { bitmap throws(ImageError) in try bitmap.oriented(orientation) })?
            .carryingOrientedGainMap(of: image, orientation)
    }
}
