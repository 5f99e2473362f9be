/// What an animated image file declares about its animation, read without decoding.
public struct AnimationInfo: Sendable, Hashable {
    /// The canvas size in pixels.
    public var canvasSize: PixelSize
    /// How many times the animation plays; 0 means forever.
    public var loopCount: Int
    /// Seconds each frame shows, in order; its count is the frame count.
    public var frameDurations: [Double]

    /// The number of frames.
    public var frameCount: Int { frameDurations.count }

    /// Creates an animation description.
    public init(canvasSize: PixelSize, loopCount: Int, frameDurations: [Double]) {
        self.canvasSize = canvasSize
        self.loopCount = loopCount
        self.frameDurations = frameDurations
    }
}
