extension ImageDecodeOptions {
    /// Refuses an animation of `frameCount` frames on a canvas of `canvas` pixels before
    /// its frames are composed. Coders call it with the frame count their header declares,
    /// or, as they read, with the frames found so far.
    ///
    /// - Throws: ``ImageError/Code/imageTooLarge`` past ``maxFrameCount`` or
    ///   ``maxAnimationWork``.
    public func checkAnimationWork(canvas: PixelSize, frameCount: Int) throws(ImageError) {
        guard frameCount <= maxFrameCount else {
            throw ImageError(.imageTooLarge, "the animation has more than the limit of \(maxFrameCount) frames")
        }
        let (work, overflow) = (canvas.pixelCount ?? Int.max).multipliedReportingOverflow(by: max(1, frameCount))
        guard !overflow, work <= maxAnimationWork else {
            throw ImageError(
                .imageTooLarge,
                "\(frameCount) frames on a \(canvas) canvas are more than the limit of \(maxAnimationWork) frame pixels"
            )
        }
    }
}
