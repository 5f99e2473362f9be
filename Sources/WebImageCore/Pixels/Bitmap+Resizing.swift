extension Bitmap {
    /// This bitmap resampled to `size` with a Lanczos-3 filter.
    ///
    /// Shrinking widens the filter over every source pixel a destination pixel covers, so
    /// fine detail blends instead of shimmering; enlarging interpolates sharply. Colour is
    /// premultiplied by alpha while filtering, so transparent pixels do not darken the
    /// edges of what they surround. Large images are split over the cores.
    public func resized(to size: PixelSize) -> Bitmap {
        precondition(size.width > 0 && size.height > 0, "cannot resize to an empty size")
        if size == self.size { return self }
        guard width > 0, height > 0 else { return Bitmap(width: size.width, height: size.height, pixelFormat: pixelFormat) }
        let columns = ResamplingWeights(source: width, destination: size.width)
        let rows = ResamplingWeights(source: height, destination: size.height)
        let premultiplying = containsTransparency
        let intermediate = FloatPixelMemory.allocate(height * size.width)
        defer { FloatPixelMemory.deallocate(intermediate) }
        let sourceWidth = width, format = pixelFormat
        pixels.withUnsafeBytes { source in
            let source = source.baseAddress!
            ParallelRows.forEachBand(of: height, pixelsPerItem: width) { band in
                let row = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: sourceWidth)
                defer { row.deallocate() }
                for y in band {
                    Bitmap.unpackRow(
                        y, of: source, width: sourceWidth, format: format, into: row,
                        premultiplying: premultiplying)
                    Bitmap.resample(row, with: columns, into: intermediate + y * size.width)
                }
            }
        }
        let byteCount = size.width * size.height * pixelFormat.bytesPerPixel
        let output = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initialized in
            let destination = UnsafeMutableRawPointer(buffer.baseAddress!)
            ParallelRows.forEachBand(of: size.height, pixelsPerItem: size.width * 2) { band in
                let row = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: size.width)
                defer { row.deallocate() }
                for y in band {
                    Bitmap.blendRows(intermediate, width: size.width, weights: rows, destinationRow: y, into: row)
                    Bitmap.packRow(
                        row, width: size.width, premultiplied: premultiplying,
                        into: destination, y: y, format: format)
                }
            }
            initialized = byteCount
        }
        return Bitmap(width: size.width, height: size.height, pixelFormat: pixelFormat, pixels: output)
    }

    /// One row resampled along x: each destination pixel is the weighted sum of its span.
    private static func resample(
        _ row: UnsafePointer<SIMD4<Float>>, with columns: ResamplingWeights,
        into output: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        columns.firstSource.withUnsafeBufferPointer { firstSource in
            columns.weightStart.withUnsafeBufferPointer { weightStart in
                columns.weights.withUnsafeBufferPointer { weights in
                    for x in 0..<columns.count {
                        var sum = SIMD4<Float>()
                        var source = row + firstSource[x]
                        for tap in weightStart[x]..<weightStart[x + 1] {
                            sum += source.pointee * weights[tap]
                            source += 1
                        }
                        output[x] = sum
                    }
                }
            }
        }
    }

    /// Destination row `destinationRow` along y: the weighted sum of whole rows of `input`.
    private static func blendRows(
        _ input: UnsafePointer<SIMD4<Float>>, width: Int, weights rows: ResamplingWeights,
        destinationRow y: Int, into row: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        rows.weights.withUnsafeBufferPointer { weights in
            let start = rows.weightStart[y], end = rows.weightStart[y + 1]
            var source = input + rows.firstSource[y] * width
            let first = weights[start]
            for x in 0..<width { row[x] = source[x] * first }
            for tap in start + 1..<end {
                source += width
                let weight = weights[tap]
                for x in 0..<width { row[x] += source[x] * weight }
            }
        }
    }
}
