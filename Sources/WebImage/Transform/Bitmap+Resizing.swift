extension Bitmap {
    /// This bitmap resampled to `size`.
    ///
    /// Shrinking averages every source pixel by the area it covers (a box filter with
    /// fractional edges), so fine detail blends instead of shimmering as nearest-neighbour
    /// sampling would; enlarging interpolates linearly. Colour is weighted by alpha, so
    /// transparent pixels do not darken the edges of what they surround.
    public func resized(to size: PixelSize) -> Bitmap {
        precondition(size.width > 0 && size.height > 0, "cannot resize to an empty size")
        if size == self.size { return self }
        let columns = ResamplingWeights(source: width, destination: size.width)
        let rows = ResamplingWeights(source: height, destination: size.height)
        var premultiplied = [Float](repeating: 0, count: height * size.width * 4)
        switch pixelFormat {
        case .rgba8:
            pixels.withUnsafeBufferPointer { source in
                resampleRows(source, maximum: 255, columns: columns, into: &premultiplied, newWidth: size.width)
            }
            var output = [UInt8](repeating: 0, count: size.width * size.height * 4)
            output.withUnsafeMutableBufferPointer { destination in
                resampleColumns(premultiplied, rows: rows, newWidth: size.width, maximum: 255, into: destination)
            }
            return Bitmap(width: size.width, height: size.height, pixelFormat: .rgba8, pixels: output)
        case .rgba16:
            pixels.withUnsafeBytes { raw in
                resampleRows(raw.bindMemory(to: UInt16.self), maximum: 65535, columns: columns,
                             into: &premultiplied, newWidth: size.width)
            }
            var output = [UInt8](repeating: 0, count: size.width * size.height * 8)
            output.withUnsafeMutableBytes { raw in
                resampleColumns(premultiplied, rows: rows, newWidth: size.width, maximum: 65535,
                                into: raw.bindMemory(to: UInt16.self))
            }
            return Bitmap(width: size.width, height: size.height, pixelFormat: .rgba16, pixels: output)
        }
    }

    /// First pass: every row to the new width, colour premultiplied by alpha, as floats 0–1.
    private func resampleRows<Channel: BinaryInteger>(
        _ source: UnsafeBufferPointer<Channel>,
        maximum: Float,
        columns: ResamplingWeights,
        into output: inout [Float],
        newWidth: Int
    ) {
        let scale = 1 / maximum
        output.withUnsafeMutableBufferPointer { out in
            for y in 0..<height {
                let rowStart = y * width * 4
                let outRow = y * newWidth * 4
                for x in 0..<newWidth {
                    var red: Float = 0, green: Float = 0, blue: Float = 0, alpha: Float = 0
                    let span = columns.spans[x]
                    for tap in 0..<span.count {
                        let weight = columns.weights[span.weightStart + tap]
                        let index = rowStart + (span.first + tap) * 4
                        let a = Float(source[index + 3]) * scale * weight
                        red += Float(source[index]) * scale * a
                        green += Float(source[index + 1]) * scale * a
                        blue += Float(source[index + 2]) * scale * a
                        alpha += a
                    }
                    out[outRow + x * 4] = red
                    out[outRow + x * 4 + 1] = green
                    out[outRow + x * 4 + 2] = blue
                    out[outRow + x * 4 + 3] = alpha
                }
            }
        }
    }

    /// Second pass: every column to the new height, then back to straight alpha integers.
    private func resampleColumns<Channel: FixedWidthInteger & UnsignedInteger>(
        _ input: [Float],
        rows: ResamplingWeights,
        newWidth: Int,
        maximum: Float,
        into output: UnsafeMutableBufferPointer<Channel>
    ) {
        input.withUnsafeBufferPointer { source in
            let rowLength = newWidth * 4
            for y in 0..<rows.spans.count {
                let span = rows.spans[y]
                let outRow = y * rowLength
                for x in 0..<newWidth {
                    var red: Float = 0, green: Float = 0, blue: Float = 0, alpha: Float = 0
                    for tap in 0..<span.count {
                        let weight = rows.weights[span.weightStart + tap]
                        let index = (span.first + tap) * rowLength + x * 4
                        red += source[index] * weight
                        green += source[index + 1] * weight
                        blue += source[index + 2] * weight
                        alpha += source[index + 3] * weight
                    }
                    let base = outRow + x * 4
                    if alpha > 0 {
                        let unpremultiply = maximum / alpha
                        output[base] = Channel(min(maximum, red * unpremultiply + 0.5))
                        output[base + 1] = Channel(min(maximum, green * unpremultiply + 0.5))
                        output[base + 2] = Channel(min(maximum, blue * unpremultiply + 0.5))
                        output[base + 3] = Channel(min(maximum, alpha * maximum + 0.5))
                    } else {
                        output[base] = 0
                        output[base + 1] = 0
                        output[base + 2] = 0
                        output[base + 3] = 0
                    }
                }
            }
        }
    }
}
