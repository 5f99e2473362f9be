/// Cuts every frame to a rectangle.
public struct CroppingImageTransformer: ImageTransformer {
    /// The left edge of the rectangle, in pixels.
    public var x: Int
    /// The top edge of the rectangle, in pixels.
    public var y: Int
    /// The rectangle's size.
    public var size: PixelSize

    /// Creates a transformer that keeps the rectangle at (`x`, `y`) of `size`.
    public init(x: Int, y: Int, size: PixelSize) {
        self.x = x
        self.y = y
        self.size = size
    }

    /// `crop-X,Y,WxH`.
    public var key: String { "crop-\(x),\(y),\(size.width)x\(size.height)" }

    /// The image cut to the rectangle (clipped to the image); `nil` when nothing is left.
    public func transform(_ image: Image) -> Image? {
        let left = max(0, x), top = max(0, y)
        let right = min(image.pixelWidth, x + size.width), bottom = min(image.pixelHeight, y + size.height)
        guard right > left, bottom > top else { return nil }
        return image.replacingFrames { bitmap in
            let pixelBytes = bitmap.pixelFormat.bytesPerPixel
            let rowBytes = (right - left) * pixelBytes
            var pixels: [UInt8] = []
            pixels.reserveCapacity(rowBytes * (bottom - top))
            for row in top..<bottom {
                let start = (row * bitmap.width + left) * pixelBytes
                pixels.append(contentsOf: bitmap.pixels[start..<start + rowBytes])
            }
            return Bitmap(width: right - left, height: bottom - top, pixelFormat: bitmap.pixelFormat, pixels: pixels)
        }
    }
}
