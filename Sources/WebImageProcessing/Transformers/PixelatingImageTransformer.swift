import WebImageCore

/// Pixelates every frame: the picture is shrunk so that each block of `blockSize` ×
/// `blockSize` pixels becomes one, then enlarged back without smoothing, so each block
/// takes one colour (imgproxy's `pixelate`).
public struct PixelatingImageTransformer: ImageTransformer {
    /// The side of a block, in pixels; a block larger than the picture makes it one colour.
    public var blockSize: Int

    /// Creates a transformer with blocks of `blockSize` pixels.
    public init(blockSize: Int) {
        self.blockSize = blockSize
    }

    /// `pixelate-N`.
    public var key: String { "pixelate-\(blockSize)" }

    /// The pixelated image; `nil` for blocks of one pixel, or when the reduction cannot
    /// get the memory it needs.
    public func transform(_ image: Image) -> Image? {
        guard blockSize > 1 else { return nil }
        return try? image.replacingFrames { bitmap throws(ImageError) in
            let block = min(blockSize, max(bitmap.width, bitmap.height))
            let small = try bitmap.resized(
                to: PixelSize(width: (bitmap.width + block - 1) / block, height: (bitmap.height + block - 1) / block))
            return try small.enlargedByRepeating(block, to: bitmap.size)
        }
    }
}

extension Bitmap {
    /// A bitmap of `size` whose pixel (x, y) is this one's (x / `factor`, y / `factor`).
    fileprivate func enlargedByRepeating(_ factor: Int, to size: PixelSize) throws(ImageError) -> Bitmap {
        let pixelBytes = pixelFormat.bytesPerPixel
        var output = try Bitmap(zeroedWidth: size.width, height: size.height, pixelFormat: pixelFormat)
        output.pixels.withUnsafeMutableBytes { destination in
            pixels.withUnsafeBytes { source in
                for y in 0..<size.height {
                    let sourceRow = min(y / factor, height - 1) * width
                    for x in 0..<size.width {
                        let from = (sourceRow + min(x / factor, width - 1)) * pixelBytes
                        let to = (y * size.width + x) * pixelBytes
                        (destination.baseAddress! + to).copyMemory(from: source.baseAddress! + from, byteCount: pixelBytes)
                    }
                }
            }
        }
        return output
    }
}
