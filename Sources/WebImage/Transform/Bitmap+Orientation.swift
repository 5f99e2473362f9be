extension Bitmap {
    /// This bitmap turned and mirrored so that a source stored with `orientation`
    /// shows upright.
    public func oriented(_ orientation: ImageOrientation) -> Bitmap {
        if orientation == .up { return self }
        let outputSize = orientation.swapsWidthAndHeight ? size.transposed : size
        let pixelBytes = pixelFormat.bytesPerPixel
        var output = [UInt8](repeating: 0, count: pixels.count)
        let lastX = width - 1, lastY = height - 1
        pixels.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { destination in
                for outY in 0..<outputSize.height {
                    for outX in 0..<outputSize.width {
                        let (x, y): (Int, Int)
                        switch orientation {
                        case .up: (x, y) = (outX, outY)
                        case .upMirrored: (x, y) = (lastX - outX, outY)
                        case .down: (x, y) = (lastX - outX, lastY - outY)
                        case .downMirrored: (x, y) = (outX, lastY - outY)
                        case .leftMirrored: (x, y) = (outY, outX)
                        case .right: (x, y) = (outY, lastY - outX)
                        case .rightMirrored: (x, y) = (lastX - outY, lastY - outX)
                        case .left: (x, y) = (lastX - outY, outX)
                        }
                        let from = (y * width + x) * pixelBytes
                        let to = (outY * outputSize.width + outX) * pixelBytes
                        destination.baseAddress!.advanced(by: to)
                            .copyMemory(from: source.baseAddress!.advanced(by: from), byteCount: pixelBytes)
                    }
                }
            }
        }
        return Bitmap(width: outputSize.width, height: outputSize.height, pixelFormat: pixelFormat, pixels: output)
    }
}
