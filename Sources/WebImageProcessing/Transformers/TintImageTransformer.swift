import WebImageCore

/// Tints every frame with a colour, mixed in by the colour's alpha, keeping the
/// picture's own alpha.
public struct TintImageTransformer: ImageTransformer {
    /// The tint; its alpha is how strongly it shows.
    public var colour: RGBA8
    /// How the tint combines with the picture.
    public var blendMode: TintBlendMode

    /// Creates a transformer that tints with `colour` in `blendMode`.
    public init(colour: RGBA8, blendMode: TintBlendMode = .normal) {
        self.colour = colour
        self.blendMode = blendMode
    }

    /// `tint-RRGGBBAA-MODE`.
    public var key: String { "tint-\(colour.hex)-\(blendMode.rawValue)" }

    /// The tinted image; `nil` when the tint is fully transparent.
    public func transform(_ image: Image) -> Image? {
        guard colour.alpha > 0 else { return nil }
        return image.replacingFrames { bitmap in
            bitmap.mappingRows(premultiplied: false) { _, row in tint(row, count: bitmap.width) }
        }
    }

    /// Tints `count` pixels of a row (straight colour, 0–1) in place.
    func tint(_ row: UnsafeMutablePointer<SIMD4<Float>>, count: Int) {
        let tint = SIMD4<Float>(Float(colour.red), Float(colour.green), Float(colour.blue), 255) / 255
        let strength = Float(colour.alpha) / 255
        for x in 0..<count {
            let picture = row[x]
            var mixed = picture + (blendMode.blend(picture, tint) - picture) * strength
            mixed.w = picture.w
            row[x] = mixed
        }
    }
}
