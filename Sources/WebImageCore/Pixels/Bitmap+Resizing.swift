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
        let wide = pixelFormat == .rgba16
        var premultiplied = [Float](repeating: 0, count: height * size.width * 4)
        pixels.withUnsafeBytes { source in
            premultiplied.withUnsafeMutableBufferPointer { output in
                resampleRows(source.baseAddress!, wide: wide, columns: columns, into: output.baseAddress!)
            }
        }
        var output = [UInt8](repeating: 0, count: size.width * size.height * pixelFormat.bytesPerPixel)
        premultiplied.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBytes { destination in
                Bitmap.resampleColumns(input.baseAddress!, rows: rows, width: size.width, wide: wide,
                                       into: destination.baseAddress!)
            }
        }
        return Bitmap(width: size.width, height: size.height, pixelFormat: pixelFormat, pixels: output)
    }

    /// First pass: every row to the new width, colour premultiplied by alpha, as floats 0–1.
    private func resampleRows(
        _ source: UnsafeRawPointer, wide: Bool, columns: ResamplingWeights, into output: UnsafeMutablePointer<Float>
    ) {
        let narrowSource = source.assumingMemoryBound(to: UInt8.self)
        let wideSource = source.assumingMemoryBound(to: UInt16.self)
        let scale: Float = wide ? 1 / 65535 : 1 / 255
        let newWidth = columns.count
        columns.firstSource.withUnsafeBufferPointer { firstSourceBuffer in
        columns.weightStart.withUnsafeBufferPointer { weightStartBuffer in
        columns.weights.withUnsafeBufferPointer { weightsBuffer in
            let firstSource = firstSourceBuffer.baseAddress!
            let weightStart = weightStartBuffer.baseAddress!
            let weights = weightsBuffer.baseAddress!
            var out = output
            for y in 0..<height {
                let rowStart = y * width * 4
                for x in 0..<newWidth {
                    var red: Float = 0, green: Float = 0, blue: Float = 0, alpha: Float = 0
                    var index = rowStart + firstSource[x] * 4
                    for tap in weightStart[x]..<weightStart[x + 1] {
                        let r, g, b, a: Float
                        if wide {
                            (r, g, b, a) = (Float(wideSource[index]), Float(wideSource[index + 1]),
                                            Float(wideSource[index + 2]), Float(wideSource[index + 3]))
                        } else {
                            (r, g, b, a) = (Float(narrowSource[index]), Float(narrowSource[index + 1]),
                                            Float(narrowSource[index + 2]), Float(narrowSource[index + 3]))
                        }
                        let weightedAlpha = a * scale * weights[tap]
                        let colourWeight = weightedAlpha * scale
                        red += r * colourWeight
                        green += g * colourWeight
                        blue += b * colourWeight
                        alpha += weightedAlpha
                        index += 4
                    }
                    out[0] = red
                    out[1] = green
                    out[2] = blue
                    out[3] = alpha
                    out += 4
                }
            }
        }
        }
        }
    }

    /// Second pass: every column to the new height, then back to straight-alpha integers.
    private static func resampleColumns(
        _ input: UnsafePointer<Float>, rows: ResamplingWeights, width: Int, wide: Bool,
        into destination: UnsafeMutableRawPointer
    ) {
        let narrowOutput = destination.assumingMemoryBound(to: UInt8.self)
        let wideOutput = destination.assumingMemoryBound(to: UInt16.self)
        let maximum: Float = wide ? 65535 : 255
        let rowLength = width * 4
        var accumulator = [Float](repeating: 0, count: rowLength)
        rows.firstSource.withUnsafeBufferPointer { firstSourceBuffer in
        rows.weightStart.withUnsafeBufferPointer { weightStartBuffer in
        rows.weights.withUnsafeBufferPointer { weightsBuffer in
        accumulator.withUnsafeMutableBufferPointer { sumBuffer in
            let firstSource = firstSourceBuffer.baseAddress!
            let weightStart = weightStartBuffer.baseAddress!
            let weights = weightsBuffer.baseAddress!
            let sum = sumBuffer.baseAddress!
            for y in 0..<rows.count {
                sum.update(repeating: 0, count: rowLength)
                var sourceRow = input + firstSource[y] * rowLength
                for tap in weightStart[y]..<weightStart[y + 1] {
                    let weight = weights[tap]
                    var from = sourceRow
                    var to = sum
                    let end = sum + rowLength
                    while to < end {
                        to.pointee += from.pointee * weight
                        to += 1
                        from += 1
                    }
                    sourceRow += rowLength
                }
                let outRow = y * rowLength
                var index = 0
                while index < rowLength {
                    let alpha = sum[index + 3]
                    let unpremultiply = alpha > 0 ? maximum / alpha : 0
                    for channel in 0..<4 {
                        let value = channel == 3 ? alpha * maximum : sum[index + channel] * unpremultiply
                        let clamped = min(maximum, value + 0.5)
                        if wide {
                            wideOutput[outRow + index + channel] = UInt16(clamped)
                        } else {
                            narrowOutput[outRow + index + channel] = UInt8(clamped)
                        }
                    }
                    index += 4
                }
            }
        }
        }
        }
        }
    }
}
