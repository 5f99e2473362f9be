extension ImageEncodeOptions {
    /// The formats that cannot store alpha, over ``background`` when it is set.
    private static let formatsWithoutAlpha: Set<ImageFormat> = [.jpeg, .bmp]

    /// `image` as it should be written as `format`: shrunk to fit ``maxPixelSize``
    /// (keeping its aspect ratio, never enlarged), then converted to sRGB unless
    /// ``colorProfile`` keeps the profile (after the shrink, as libvips does, so a
    /// thumbnail converts few pixels), and drawn over ``background`` when the format has
    /// no alpha.
    ///
    /// Every coder's ``ImageCoder/encode(_:as:options:)`` starts with this call, so the
    /// options mean the same whether a coder is called directly or through an
    /// ``ImageCodersManager``; a custom coder calls it too.
    ///
    /// - Throws: ``ImageError/Code/imageTooLarge`` when the shrink or the flattening cannot
    ///   get the memory it needs.
    public func prepared(_ image: Image, for format: ImageFormat) throws(ImageError) -> Image {
        var result = image
        if let box = maxPixelSize, box.width > 0, box.height > 0,
            image.pixelWidth > box.width || image.pixelHeight > box.height
        {
            let ratio = min(Double(box.width) / Double(image.pixelWidth), Double(box.height) / Double(image.pixelHeight))
            let size = PixelSize(
                width: max(1, Int((Double(image.pixelWidth) * ratio).rounded())),
                height: max(1, Int((Double(image.pixelHeight) * ratio).rounded())))
            result = try result.replacingFrames { bitmap throws(ImageError) in try bitmap.resized(to: size) }
                .carryingResizedGainMap(of: image)
        }
        if colorProfile == .convertToSRGB {
            result = result.convertedToSRGB()
        }
        if let background, result.hasAlpha, Self.formatsWithoutAlpha.contains(format) {
            let flat = try result.replacingFrames { bitmap throws(ImageError) in try bitmap.flattened(onto: background) }
            result = Image(
                frames: flat.frames, loopCount: flat.loopCount, scale: flat.scale,
                orientation: flat.orientation, format: flat.format, hasAlpha: background.alpha < 255,
                colorProfile: flat.colorProfile, gainMap: flat.gainMap)
        }
        return result
    }

    /// These options with nothing left for ``prepared(_:for:)`` to do, for an image it has
    /// already prepared and that is encoded more than once.
    package var withoutPreparation: ImageEncodeOptions {
        var options = self
        options.maxPixelSize = nil
        options.background = nil
        return options
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
