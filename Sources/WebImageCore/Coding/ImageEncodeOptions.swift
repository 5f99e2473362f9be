/// How an encoder should write an image.
public struct ImageEncodeOptions: Sendable, Hashable {
    /// Quality for lossy formats, from 0 (smallest) to 1 (best). Lossless formats ignore it.
    public var quality: Double = 0.9
    /// Write only the first frame of an animation.
    public var firstFrameOnly = false
    /// Ask formats that have both modes (WebP) for lossless output.
    public var lossless = false

    /// Creates encode options.
    public init(quality: Double = 0.9, firstFrameOnly: Bool = false, lossless: Bool = false) {
        self.quality = min(max(quality, 0), 1)
        self.firstFrameOnly = firstFrameOnly
        self.lossless = lossless
    }
}
