extension Image {
    /// The same image with every frame's bitmap replaced by `transform`'s result; timing,
    /// loop count, scale, format and colour profile are kept.
    public func replacingFrames(_ transform: (Bitmap) -> Bitmap) -> Image {
        Image(
            frames: frames.map { ImageFrame(bitmap: transform($0.bitmap), duration: $0.duration) },
            loopCount: loopCount, scale: scale, orientation: orientation, format: format,
            colorProfile: colorProfile
        )
    }
}
