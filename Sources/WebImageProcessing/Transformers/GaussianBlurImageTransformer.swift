import WebImageCore

/// Blurs every frame with a Gaussian, colour premultiplied by alpha so that clear pixels
/// do not darken their neighbours.
///
/// Opaque 8-bit images below `Bitmap.integerBlurMaximumSigma` are convolved with the
/// Gaussian sampled out to 3σ as a 16-bit integer mask, across then down (libvips' way
/// for small sigmas). Otherwise small sigmas convolve with the sampled Gaussian in float;
/// from a sigma of 1 on, a recursive filter (Deriche's, fourth order) follows the Gaussian
/// within 0.3% of its peak at a cost that stays the same however large the sigma. Large
/// images use every core.
public struct GaussianBlurImageTransformer: ImageTransformer {
    /// The Gaussian's standard deviation in pixels.
    public var sigma: Double

    /// Creates a transformer that blurs with a Gaussian of `sigma` pixels.
    public init(sigma: Double) {
        self.sigma = sigma
    }

    /// `blur-SIGMA`.
    public var key: String { "blur-\(RoundedCornersImageTransformer.format(sigma))" }

    /// The blurred image; `nil` when sigma is not a positive finite number, or when the
    /// blur cannot get the memory it needs.
    public func transform(_ image: Image) -> Image? {
        guard sigma > 0, sigma.isFinite else { return nil }
        return try? image.replacingFrames { bitmap throws(ImageError) in try bitmap.gaussianBlurred(sigma: sigma) }
    }
}
