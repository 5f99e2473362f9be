import WebImageCore

extension Bitmap {
    /// The pixels of the rectangle at (`x`, `y`) of `size`, which must lie inside this
    /// bitmap; rows are copied whole, with no conversion. Throws
    /// `ImageError.Code.imageTooLarge` when the copy cannot be had.
    package func cropped(x: Int, y: Int, size: PixelSize) throws(ImageError) -> Bitmap {
        precondition(x >= 0 && y >= 0 && x + size.width <= width && y + size.height <= height, "crop outside the bitmap")
        if x == 0, y == 0, size == self.size { return self }
        let pixelBytes = pixelFormat.bytesPerPixel
        let rowBytes = size.width * pixelBytes
        let output = try [UInt8](unsafeUninitializedImageSized: rowBytes, size.height) { buffer, initialized in
            pixels.withUnsafeBytes { source in
                for row in 0..<size.height {
                    let start = ((y + row) * width + x) * pixelBytes
                    UnsafeMutableRawPointer(buffer.baseAddress! + row * rowBytes)
                        .copyMemory(from: source.baseAddress! + start, byteCount: rowBytes)
                }
            }
            initialized = rowBytes * size.height
        }
        return Bitmap(width: size.width, height: size.height, pixelFormat: pixelFormat, pixels: output)
    }
}
