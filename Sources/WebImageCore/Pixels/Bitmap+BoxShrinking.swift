extension Bitmap {
    /// The bitmap made `factor` times smaller on each side by averaging each `factor` ×
    /// `factor` block of its pixels, colour weighted by alpha (a transparent pixel's colour
    /// does not bleed into its block); the blocks of the last column and row, which the
    /// sides may not fill, average the pixels they have.
    ///
    /// The cheap first step of a large reduction, as libvips shrinks before it reduces: a
    /// resampling filter over the result needs `factor` times fewer taps on each side than
    /// over the bitmap, and the block average is what a JPEG or WebP decode at a reduced
    /// scale does in its own way. `nil` when there is nothing to shrink this way: a factor
    /// outside 2...64, or a layout other than 8-bit RGBA.
    ///
    /// - Throws: ``ImageError/Code/imageTooLarge`` when the result cannot be had.
    public func boxShrunk(by factor: Int) throws(ImageError) -> Bitmap? {
        // 64² pixels of 255 × 255 stay within a 32-bit sum.
        guard (2...64).contains(factor), pixelFormat == .rgba8, width > 0, height > 0 else { return nil }
        let (sourceWidth, sourceHeight) = (width, height)
        let (outputWidth, outputHeight) = ((width + factor - 1) / factor, (height + factor - 1) / factor)
        let output = try [UInt8](unsafeUninitializedImageSized: outputWidth, outputHeight, 4) { buffer, initialized in
            let destination = buffer.baseAddress!
            let sums = UnsafeMutablePointer<UInt32>.allocate(capacity: outputWidth * 4)
            defer { sums.deallocate() }
            pixels.withUnsafeBytes { source in
                let source = source.baseAddress!.assumingMemoryBound(to: UInt8.self)
                for outputY in 0..<outputHeight {
                    let top = outputY * factor
                    let bottom = min(top + factor, sourceHeight)
                    sums.update(repeating: 0, count: outputWidth * 4)
                    for y in top..<bottom {
                        var pixel = source + y * sourceWidth * 4
                        for outputX in 0..<outputWidth {
                            let count = min(factor, sourceWidth - outputX * factor)
                            var (red, green, blue, alpha): (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
                            for _ in 0..<count {
                                let weight = UInt32(pixel[3])
                                red &+= UInt32(pixel[0]) &* weight
                                green &+= UInt32(pixel[1]) &* weight
                                blue &+= UInt32(pixel[2]) &* weight
                                alpha &+= weight
                                pixel += 4
                            }
                            let sum = sums + outputX * 4
                            sum[0] &+= red
                            sum[1] &+= green
                            sum[2] &+= blue
                            sum[3] &+= alpha
                        }
                    }
                    let rows = UInt32(bottom - top)
                    let row = destination + outputY * outputWidth * 4
                    for outputX in 0..<outputWidth {
                        let sum = sums + outputX * 4
                        let pixels = rows * UInt32(min(factor, sourceWidth - outputX * factor))
                        let alpha = sum[3]
                        let out = row + outputX * 4
                        out[3] = UInt8(truncatingIfNeeded: (alpha + pixels / 2) / pixels)
                        for channel in 0..<3 {
                            out[channel] = alpha == 0 ? 0 : UInt8(truncatingIfNeeded: (sum[channel] + alpha / 2) / alpha)
                        }
                    }
                }
            }
            initialized = outputWidth * outputHeight * 4
        }
        return Bitmap(width: outputWidth, height: outputHeight, pixelFormat: .rgba8, pixels: output)
    }
}
