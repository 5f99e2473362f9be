/// One frame of an ``Image``: its pixels and how long it stays on screen.
public struct ImageFrame: Sendable, Hashable {
    /// The frame's pixels, already composed onto the canvas (every frame is full size).
    public var bitmap: Bitmap
    /// Seconds this frame shows before the next; 0 for a still image.
    public var duration: Double

    /// Creates a frame.
    public init(bitmap: Bitmap, duration: Double = 0) {
        self.bitmap = bitmap
        self.duration = duration
    }
}
