import WebImageCore

/// Sharpens every frame with an unsharp mask: each pixel moves away from a Gaussian blur
/// of itself by ``amount`` times the difference.
public struct SharpeningImageTransformer: ImageTransformer {
    /// The sigma, in pixels, of the blur that finds the detail to strengthen.
    public var sigma: Double
    /// How much of the detail is added back: 0 changes nothing, 1 doubles it.
    public var amount: Double

    /// Creates a transformer that sharpens detail of about `sigma` pixels by `amount`.
    public init(sigma: Double = 1, amount: Double = 1) {
        self.sigma = sigma
        self.amount = amount
    }

    /// `sharpen-SIGMA-AMOUNT`.
    public var key: String {
        "sharpen-\(RoundedCornersImageTransformer.format(sigma))-\(RoundedCornersImageTransformer.format(amount))"
    }

    /// The sharpened image; `nil` when sigma or amount is not positive, or when the blur
    /// cannot get the memory it needs.
    public func transform(_ image: Image) -> Image? {
        guard sigma > 0, sigma.isFinite, amount > 0, amount.isFinite else { return nil }
        let amount = Float(amount)
        return try? image.replacingFrames { bitmap throws(ImageError) in
            let premultiplying = bitmap.containsTransparency
            let blurred = try bitmap.blurredFloats(sigma: sigma, premultiplying: premultiplying)
            defer { FloatPixelMemory.deallocate(blurred) }
            let width = bitmap.width
            return bitmap.mappingRows(premultiplied: premultiplying) { y, row in
                let smooth = blurred + y * width
                for x in 0..<width {
                    var sharp = row[x] + (row[x] - smooth[x]) * amount
                    sharp.w = row[x].w
                    row[x] = sharp
                }
            }
        }
    }
}
