extension Bitmap {
    /// A bitmap of `size` filled with `colour`, or ``ImageError/Code/imageTooLarge``
    /// when its pixels cannot be had.
    package static func filled(_ size: PixelSize, format: PixelFormat, with colour: RGBA8) throws(ImageError) -> Bitmap {
        var canvas = try Bitmap(zeroedWidth: size.width, height: size.height, pixelFormat: format)
        guard colour != .clear else { return canvas }
        let pixel = Bitmap(width: 1, height: 1, pixels: [colour.red, colour.green, colour.blue, colour.alpha])
        let converted = format == .rgba16 ? try pixel.convertedToRGBA16() : pixel
        canvas.pixels.withUnsafeMutableBytes { destination in
            converted.pixels.withUnsafeBytes { source in
                let bytes = format.bytesPerPixel
                for offset in stride(from: 0, to: destination.count, by: bytes) {
                    destination.baseAddress!.advanced(by: offset).copyMemory(from: source.baseAddress!, byteCount: bytes)
                }
            }
        }
        return canvas
    }

    /// This bitmap with 16-bit channels (a copy-free return when it already has them), or
    /// ``ImageError/Code/imageTooLarge`` when the widened copy cannot be had.
    package func convertedToRGBA16() throws(ImageError) -> Bitmap {
        guard pixelFormat == .rgba8 else { return self }
        var wide = try [UInt8](repeating: 0, imageSized: width, height, 8)
        wide.withUnsafeMutableBytes { destination in
            let channels = destination.bindMemory(to: UInt16.self)
            for index in 0..<pixels.count {
                channels[index] = UInt16(pixels[index]) * 257
            }
        }
        return Bitmap(width: width, height: height, pixelFormat: .rgba16, pixels: wide)
    }

    /// This bitmap with `top` drawn over it, source-over, its top-left corner at
    /// (`x`, `y`) (parts outside are clipped), its alpha scaled by `opacity`.
    ///
    /// `top` may have the other pixel format; the result keeps this bitmap's.
    package func drawing(_ top: Bitmap, atX x: Int, y: Int, opacity: Float = 1) -> Bitmap {
        var result = self
        result.draw(top, atX: x, y: y, opacity: opacity)
        return result
    }

    /// Draws `top` over this bitmap in place, as ``drawing(_:atX:y:opacity:)`` does: many
    /// copies drawn one after another touch only the pixels under each.
    package mutating func draw(_ top: Bitmap, atX x: Int, y: Int, opacity: Float = 1) {
        let left = max(0, x), right = min(width, x + top.width)
        let upper = max(0, y), lower = min(height, y + top.height)
        guard left < right, upper < lower, opacity > 0 else { return }
        let format = pixelFormat, baseWidth = width
        pixels.withUnsafeMutableBytes { base in
            top.pixels.withUnsafeBytes { overlay in
                let base = base.baseAddress!, overlay = overlay.baseAddress!
                ParallelRows.forEachBand(of: lower - upper, pixelsPerItem: right - left) { band in
                    let columns = left..<right
                    let under = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: columns.count)
                    let over = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: columns.count)
                    defer {
                        under.deallocate()
                        over.deallocate()
                    }
                    for row in band {
                        let baseY = upper + row
                        Bitmap.unpackRow(
                            baseY, of: base, width: baseWidth, columns: columns, format: format,
                            into: under, premultiplying: true)
                        Bitmap.unpackRow(
                            baseY - y, of: overlay, width: top.width, columns: left - x..<right - x,
                            format: top.pixelFormat, into: over, premultiplying: true)
                        for index in 0..<columns.count {
                            let source = over[index] * opacity
                            under[index] = source + under[index] * (1 - source.w)
                        }
                        Bitmap.packRow(
                            under, width: baseWidth, columns: columns, premultiplied: true,
                            into: base, y: baseY, format: format)
                    }
                }
            }
        }
    }

    /// This bitmap drawn over a canvas of `colour`: how an image with alpha is written to a
    /// format without it. Throws ``ImageError/Code/imageTooLarge`` when the canvas cannot
    /// be had.
    package func flattened(onto colour: RGBA8) throws(ImageError) -> Bitmap {
        try Bitmap.filled(size, format: pixelFormat, with: colour).drawing(self, atX: 0, y: 0)
    }
}
