extension Bitmap {
    /// This bitmap turned and mirrored so that a source stored with `orientation`
    /// shows upright.
    ///
    /// Throws ``ImageError/Code/imageTooLarge`` when the turned copy cannot be had.
    public func oriented(_ orientation: ImageOrientation) throws(ImageError) -> Bitmap {
        if orientation == .up { return self }
        let outputSize = orientation.swapsWidthAndHeight ? size.transposed : size
        // Where output pixel (0, 0) comes from, and how far the source moves (in pixels)
        // for one step right and one step down in the output.
        let lastX = width - 1, lastY = height - 1
        let (startX, startY, rightStep, downStep): (Int, Int, Int, Int)
        switch orientation {
        case .up: (startX, startY, rightStep, downStep) = (0, 0, 1, width)
        case .upMirrored: (startX, startY, rightStep, downStep) = (lastX, 0, -1, width)
        case .down: (startX, startY, rightStep, downStep) = (lastX, lastY, -1, -width)
        case .downMirrored: (startX, startY, rightStep, downStep) = (0, lastY, 1, -width)
        case .leftMirrored: (startX, startY, rightStep, downStep) = (0, 0, width, 1)
        case .right: (startX, startY, rightStep, downStep) = (0, lastY, -width, 1)
        case .rightMirrored: (startX, startY, rightStep, downStep) = (lastX, lastY, -width, -1)
        case .left: (startX, startY, rightStep, downStep) = (lastX, 0, width, -1)
        }
        var output = try [UInt8](repeating: 0, imageSized: pixels.count)
        let start = startY * width + startX
        pixels.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { destination in
                switch pixelFormat {
                case .rgba8:
                    Bitmap.copyPixels(
                        from: source.baseAddress!.assumingMemoryBound(to: UInt32.self) + start,
                        to: destination.baseAddress!.assumingMemoryBound(to: UInt32.self),
                        size: outputSize, rightStep: rightStep, downStep: downStep
                    )
                case .rgba16:
                    Bitmap.copyPixels(
                        from: source.baseAddress!.assumingMemoryBound(to: UInt64.self) + start,
                        to: destination.baseAddress!.assumingMemoryBound(to: UInt64.self),
                        size: outputSize, rightStep: rightStep, downStep: downStep
                    )
                }
            }
        }
        return Bitmap(width: outputSize.width, height: outputSize.height, pixelFormat: pixelFormat, pixels: output)
    }

    /// Copies whole pixels (one 4- or 8-byte word each) along the walk that orients them.
    private static func copyPixels<Pixel>(
        from start: UnsafePointer<Pixel>, to destination: UnsafeMutablePointer<Pixel>,
        size: PixelSize, rightStep: Int, downStep: Int
    ) {
        var out = destination
        var rowStart = start
        for _ in 0..<size.height {
            var source = rowStart
            for _ in 0..<size.width {
                out.pointee = source.pointee
                out += 1
                source += rightStep
            }
            rowStart += downStep
        }
    }
}
