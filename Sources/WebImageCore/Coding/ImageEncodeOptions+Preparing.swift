extension ImageEncodeOptions {
    /// The formats that cannot store alpha, over ``background`` when it is set.
    private static let formatsWithoutAlpha: Set<ImageFormat> = [.jpeg, .bmp]

    /// `image` as it should reach a coder writing `format`: shrunk to ``maxPixelSize``
    /// and drawn over ``background`` when the format has no alpha.
    package func prepared(_ image: Image, for format: ImageFormat) -> Image {
        var result = image
        if let box = maxPixelSize, box.width > 0, box.height > 0,
            image.pixelWidth > box.width || image.pixelHeight > box.height
        {
            let ratio = min(Double(box.width) / Double(image.pixelWidth), Double(box.height) / Double(image.pixelHeight))
            let size = PixelSize(
                width: max(1, Int((Double(image.pixelWidth) * ratio).rounded())),
                height: max(1, Int((Double(image.pixelHeight) * ratio).rounded())))
            result = result.replacingFrames { $0.resized(to: size) }
        }
        if let background, result.hasAlpha, Self.formatsWithoutAlpha.contains(format) {
            let flat = result.replacingFrames { $0.flattened(onto: background) }
            result = Image(
                frames: flat.frames, loopCount: flat.loopCount, scale: flat.scale,
                orientation: flat.orientation, format: flat.format, hasAlpha: background.alpha < 255)
        }
        return result
    }

    /// Whether quality changes the output of `format` under these options.
    package func isLossy(_ format: ImageFormat) -> Bool {
        switch format {
        case .jpeg: true
        case .webp: !lossless
        default: false
        }
    }
}
