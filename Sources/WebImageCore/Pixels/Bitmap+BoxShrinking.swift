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
    /// - Parameters:
    ///   - factor: How many times smaller each side becomes, 2 to 64.
    ///   - isOpaque: Whether the caller knows every pixel's alpha is 255 (an image's
    ///     `hasAlpha` is false, as a JPEG's decode): the channels are then summed without
    ///     the weighting, which gives the same pixels for opaque ones in less time. A
    ///     transparent pixel summed this way lends its colour to its block.
    /// - Throws: ``ImageError/Code/imageTooLarge`` when the result cannot be had.
    public func boxShrunk(by factor: Int, isOpaque: Bool = false) throws(ImageError) -> Bitmap? {
        // 64² pixels of 255 × 255 stay within a 32-bit sum.
        guard (2...64).contains(factor), pixelFormat == .rgba8, width > 0, height > 0 else { return nil }
        let (sourceWidth, sourceHeight) = (width, height)
        let (outputWidth, outputHeight) = ((width + factor - 1) / factor, (height + factor - 1) / factor)
        let output = try [UInt8](unsafeUninitializedImageSized: outputWidth, outputHeight, 4) { buffer, initialized in
            let destination = buffer.baseAddress!
            // Each block's colour sums weighted by alpha, and its alpha sum; an opaque
            // bitmap's colour sums alone.
            let sums = UnsafeMutablePointer<SIMD4<UInt32>>.allocate(capacity: outputWidth)
            defer { sums.deallocate() }
            pixels.withUnsafeBytes { source in
                let source = source.baseAddress!.assumingMemoryBound(to: SIMD4<UInt8>.self)
                for outputY in 0..<outputHeight {
                    let top = outputY * factor
                    let bottom = min(top + factor, sourceHeight)
                    sums.update(repeating: SIMD4(), count: outputWidth)
                    for y in top..<bottom {
                        Self.addBlocks(
                            of: source + y * sourceWidth, width: sourceWidth, factor: factor, isOpaque: isOpaque, into: sums,
                            blocks: outputWidth)
                    }
                    let rows = UInt32(bottom - top)
                    let row = destination + outputY * outputWidth * 4
                    if isOpaque {
                        Self.writeOpaqueAverages(of: sums, blocks: outputWidth, rows: rows, factor: factor, width: sourceWidth, into: row)
                    } else {
                        Self.writeWeightedAverages(of: sums, blocks: outputWidth, rows: rows, factor: factor, width: sourceWidth, into: row)
                    }
                }
            }
            initialized = outputWidth * outputHeight * 4
        }
        return Bitmap(width: outputWidth, height: outputHeight, pixelFormat: .rgba8, pixels: output)
    }

    /// Adds a row of `width` pixels to `sums`, a sum for each of `blocks` blocks of `factor`
    /// pixels (the last block what the row leaves it): colour weighted by alpha and alpha,
    /// or, when `isOpaque`, the colour alone.
    private static func addBlocks(
        of row: UnsafePointer<SIMD4<UInt8>>, width: Int, factor: Int, isOpaque: Bool, into sums: UnsafeMutablePointer<SIMD4<UInt32>>,
        blocks: Int
    ) {
        var pixel = row
        for block in 0..<blocks {
            var sum = SIMD4<UInt32>()
            let count = min(factor, width - block * factor)
            if isOpaque {
                for _ in 0..<count {
                    sum &+= SIMD4<UInt32>(truncatingIfNeeded: pixel.pointee)
                    pixel += 1
                }
            } else {
                for _ in 0..<count {
                    let value = SIMD4<UInt32>(truncatingIfNeeded: pixel.pointee)
                    sum &+= value &* SIMD4(value.w, value.w, value.w, 1)
                    pixel += 1
                }
            }
            sums[block] &+= sum
        }
    }

    /// Writes each of `blocks` blocks' sums of colour weighted by alpha and of alpha, `rows`
    /// rows of `factor` pixels (the last block what a `width`-pixel row leaves it), as its
    /// rounded average pixel into `row`; a block with no alpha is clear black.
    private static func writeWeightedAverages(
        of sums: UnsafePointer<SIMD4<UInt32>>, blocks: Int, rows: UInt32, factor: Int, width: Int,
        into row: UnsafeMutablePointer<UInt8>
    ) {
        for block in 0..<blocks {
            let sum = sums[block]
            let count = rows * UInt32(min(factor, width - block * factor))
            let alpha = sum.w
            let out = row + block * 4
            out[3] = UInt8(truncatingIfNeeded: (alpha + count / 2) / count)
            for channel in 0..<3 {
                out[channel] = alpha == 0 ? 0 : UInt8(truncatingIfNeeded: (sum[channel] + alpha / 2) / alpha)
            }
        }
    }

    /// Writes each of `blocks` opaque blocks' colour sums, `rows` rows of `factor` pixels
    /// (the last block what a `width`-pixel row leaves it), as its rounded average into
    /// `row`. A block of n pixels divides by n with a multiply by ⌊2⁴² ÷ n⌋ + 1 and a
    /// shift, exact for sums under 256 n with n up to 64²; a division is most of the time
    /// a block takes otherwise.
    private static func writeOpaqueAverages(
        of sums: UnsafePointer<SIMD4<UInt32>>, blocks: Int, rows: UInt32, factor: Int, width: Int,
        into row: UnsafeMutablePointer<UInt8>
    ) {
        let full = UInt64(rows) * UInt64(factor)
        let fullReciprocal = (1 << 42) / full + 1
        for block in 0..<blocks {
            let count = UInt64(rows) * UInt64(min(factor, width - block * factor))
            let reciprocal = count == full ? fullReciprocal : (1 << 42) / count + 1
            let sum = sums[block]
            let out = row + block * 4
            for channel in 0..<3 {
                out[channel] = UInt8(truncatingIfNeeded: ((UInt64(sum[channel]) + count / 2) &* reciprocal) >> 42)
            }
            out[3] = 255
        }
    }
}
