extension Image {
    /// The same image with every frame's bitmap replaced by `transform`'s result; timing,
    /// loop count, scale, format, colour profile and gain map are kept (a geometric step
    /// then puts the gain map through the same geometry with
    /// ``carryingGainMap(of:through:)``). An error `transform` throws
    /// for any frame is thrown.
    public func replacingFrames<Failure: Error>(_ transform: (Bitmap) throws(Failure) -> Bitmap) throws(Failure) -> Image {
        var replaced: [ImageFrame] = []
        replaced.reserveCapacity(frames.count)
        for frame in frames {
            replaced.append(ImageFrame(bitmap: try transform(frame.bitmap), duration: frame.duration))
        }
        return Image(
            frames: replaced,
            loopCount: loopCount, scale: scale, orientation: orientation, format: format,
            colorProfile: colorProfile, gainMap: gainMap
        )
    }
}
