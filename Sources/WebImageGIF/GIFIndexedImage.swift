import WebImageCore
/// An RGBA8 bitmap turned into at most 256 palette colours and one index per pixel, as
/// a GIF image stores it.
///
/// A bitmap of up to 256 colours (counting transparency as one) gets its exact colours,
/// so decoding gives back the same pixels; a richer one is reduced by median cut.
/// Pixels with alpha under 128 become the transparent index.
struct GIFIndexedImage {
    /// Palette colours as RGB triples; the count is a power of two from 2 to 256.
    private(set) var palette: [UInt8]
    /// One palette index per pixel, rows top to bottom.
    private(set) var indices: [UInt8]
    /// The index drawn as transparent, if the bitmap has transparent pixels.
    private(set) var transparentIndex: Int?

    /// The number of palette entries.
    var colorCount: Int { palette.count / 3 }

    /// Indexes `bitmap`, which must be RGBA8; throws ``ImageError/Code/imageTooLarge``
    /// when its indices cannot be had.
    init(_ bitmap: Bitmap) throws(ImageError) {
        let pixelCount = bitmap.width * bitmap.height
        var indices = try [UInt8](repeating: 0, imageSized: pixelCount)
        var colors: [UInt32] = []
        let hasTransparency = GIFIndexedImage.hasTransparentPixels(bitmap)
        let maximumColors = hasTransparency ? 255 : 256
        let isExact = bitmap.pixels.withUnsafeBufferPointer { source in
            indices.withUnsafeMutableBufferPointer { output in
                GIFIndexedImage.indexExactly(source, into: output, colors: &colors, maximumColors: maximumColors)
            }
        }
        if !isExact {
            colors = bitmap.pixels.withUnsafeBufferPointer { source in
                indices.withUnsafeMutableBufferPointer { output in
                    GIFIndexedImage.indexByMedianCut(source, into: output, maximumColors: maximumColors)
                }
            }
        }
        if hasTransparency {
            let transparent = UInt8(colors.count)
            colors.append(0)
            bitmap.pixels.withUnsafeBufferPointer { source in
                for pixel in 0..<pixelCount where source[pixel * 4 + 3] < 128 {
                    indices[pixel] = transparent
                }
            }
            transparentIndex = Int(transparent)
        }
        var paletteSize = 2
        while paletteSize < colors.count { paletteSize *= 2 }
        var palette = [UInt8](repeating: 0, count: paletteSize * 3)
        for (index, color) in colors.enumerated() {
            palette[index * 3] = UInt8(truncatingIfNeeded: color)
            palette[index * 3 + 1] = UInt8(truncatingIfNeeded: color >> 8)
            palette[index * 3 + 2] = UInt8(truncatingIfNeeded: color >> 16)
        }
        self.palette = palette
        self.indices = indices
    }

    /// Whether any pixel of the RGBA8 `bitmap` is transparent enough (alpha under 128)
    /// to take the transparent index.
    static func hasTransparentPixels(_ bitmap: Bitmap) -> Bool {
        bitmap.pixels.withUnsafeBufferPointer { source in
            stride(from: 3, to: source.count, by: 4).contains { source[$0] < 128 }
        }
    }

    /// Gives every distinct opaque colour its own index; returns `false` as soon as there
    /// are more than `maximumColors`.
    private static func indexExactly(
        _ source: UnsafeBufferPointer<UInt8>,
        into output: UnsafeMutableBufferPointer<UInt8>,
        colors: inout [UInt32],
        maximumColors: Int
    ) -> Bool {
        var lookup: [UInt32: UInt8] = [:]
        var lastColor = UInt32.max
        var lastIndex: UInt8 = 0
        for pixel in 0..<output.count {
            let offset = pixel * 4
            if source[offset + 3] < 128 { continue }
            let color = UInt32(source[offset]) | UInt32(source[offset + 1]) << 8 | UInt32(source[offset + 2]) << 16
            if color != lastColor {
                if let known = lookup[color] {
                    lastIndex = known
                } else {
                    guard colors.count < maximumColors else { return false }
                    lastIndex = UInt8(colors.count)
                    lookup[color] = lastIndex
                    colors.append(color)
                }
                lastColor = color
            }
            output[pixel] = lastIndex
        }
        return true
    }
}
