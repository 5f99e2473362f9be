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
        let tint = SIMD4<Float>(Float(colour.red), Float(colour.green), Float(colour.blue), 255) / 255
        let strength = Float(colour.alpha) / 255
        let mode = blendMode
        return image.replacingFrames { bitmap in
            bitmap.mappingRows(premultiplied: false) { _, row in
                for x in 0..<bitmap.width {
                    let picture = row[x]
                    var mixed = picture + (mode.blend(picture, tint) - picture) * strength
                    mixed.w = picture.w
                    row[x] = mixed
                }
            }
        }
    }
}
