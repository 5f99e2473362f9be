extension ImageDecodeOptions {
    /// The size each frame should come out at, as displayed, for a source of `source`
    /// pixels (as displayed) with `frameCount` frames of `bytesPerPixel` bytes each.
    ///
    /// Applies ``thumbnailPixelSize`` (never scaling up; aspect fit when
    /// ``preserveAspectRatio``, aspect cover with ``coversThumbnailBox`` too) and then
    /// ``scaleDownLimitBytes``. Every coder uses this one rule so that all formats agree
    /// on output sizes.
    public func targetSize(forSource source: PixelSize, frameCount: Int = 1, bytesPerPixel: Int = 4) -> PixelSize {
        var size = source
        if let box = thumbnailPixelSize, box.width > 0, box.height > 0,
            source.width > box.width || source.height > box.height
        {
            if preserveAspectRatio {
                let ratioX = Double(box.width) / Double(source.width)
                let ratioY = Double(box.height) / Double(source.height)
                let ratio = coversThumbnailBox ? min(1, max(ratioX, ratioY)) : min(ratioX, ratioY)
                size = PixelSize(
                    width: max(1, Int((Double(source.width) * ratio).rounded())),
                    height: max(1, Int((Double(source.height) * ratio).rounded()))
                )
            } else {
                size = PixelSize(width: min(box.width, source.width), height: min(box.height, source.height))
            }
        }
        if let limit = scaleDownLimitBytes, limit > 0 {
            let frames = Double(firstFrameOnly ? 1 : max(1, frameCount))
            let bytes = Double(size.width) * Double(size.height) * Double(bytesPerPixel) * frames
            if bytes > Double(limit) {
                let ratio = (Double(limit) / bytes).squareRoot()
                size = PixelSize(
                    width: max(1, Int(Double(size.width) * ratio)),
                    height: max(1, Int(Double(size.height) * ratio))
                )
            }
        }
        return size
    }

    /// Refuses an allocation of `frameCount` frames of `size` before it happens.
    ///
    /// - Throws: ``ImageError/Code/badImageData`` for an empty size,
    ///   ``ImageError/Code/imageTooLarge`` past ``maxPixelCount`` or ``maxTotalBytes``.
    public func checkAllocation(_ size: PixelSize, frameCount: Int = 1, bytesPerPixel: Int = 4) throws(ImageError) {
        guard size.width > 0, size.height > 0 else {
            throw ImageError(.badImageData, "the image declares an empty size \(size)")
        }
        guard let pixels = size.pixelCount, pixels <= maxPixelCount else {
            throw ImageError(.imageTooLarge, "\(size) is over the limit of \(maxPixelCount) pixels per frame")
        }
        let (frameBytes, overflow1) = pixels.multipliedReportingOverflow(by: bytesPerPixel)
        let (total, overflow2) = frameBytes.multipliedReportingOverflow(by: max(1, frameCount))
        guard !overflow1, !overflow2, total <= maxTotalBytes else {
            throw ImageError(
                .imageTooLarge,
                "\(frameCount) frames of \(size) need more than the limit of \(maxTotalBytes) bytes"
            )
        }
    }
}
