extension Bitmap {
    /// This bitmap resampled to `size` with a Lanczos-3 filter.
    ///
    /// Shrinking widens the filter over every source pixel a destination pixel covers, so
    /// fine detail blends instead of shimmering; enlarging interpolates sharply. Colour is
    /// premultiplied by alpha while filtering, so transparent pixels do not darken the
    /// edges of what they surround. Large images are split over the cores.
    ///
    /// Throws ``ImageError/Code/imageTooLarge`` when the result or the scratch between the
    /// two passes cannot be had (see `FloatPixelMemory`): running out of memory is an error,
    /// not a trap.
    public func resized(to size: PixelSize) throws(ImageError) -> Bitmap {
        precondition(size.width > 0 && size.height > 0, "cannot resize to an empty size")
        if size == self.size { return self }
        let (pixelCount, pixelsOverflow) = size.width.multipliedReportingOverflow(by: size.height)
        let (byteCount, bytesOverflow) = pixelCount.multipliedReportingOverflow(by: pixelFormat.bytesPerPixel)
        guard !pixelsOverflow, !bytesOverflow, byteCount <= FloatPixelMemory.largestBuffer else {
            throw ImageError(.imageTooLarge, "a \(size.width)x\(size.height) bitmap would take more than the machine's memory")
        }
        guard width > 0, height > 0 else { return try Bitmap(zeroedWidth: size.width, height: size.height, pixelFormat: pixelFormat) }
        let columns = ResamplingWeights(source: width, destination: size.width)
        let rows = ResamplingWeights(source: height, destination: size.height)
        let premultiplying = containsTransparency
        let rowsFirst = Self.resamplesRowsFirst(from: self.size, to: size)
        let intermediate = try FloatPixelMemory.allocate(Self.resamplingScratchPixels(from: self.size, to: size))
        defer { FloatPixelMemory.deallocate(intermediate) }
        let sourceWidth = width, format = pixelFormat
        pixels.withUnsafeBytes { source in
            let source = source.baseAddress!
            if rowsFirst {
                // Each output row's span of source rows, blended at the source's width.
                ParallelRows.forEachBand(of: size.height, pixelsPerItem: sourceWidth * 6) { band in
                    let row = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: sourceWidth)
                    defer { row.deallocate() }
                    for y in band {
                        Bitmap.blendSourceRows(
                            source, width: sourceWidth, format: format, premultiplying: premultiplying, weights: rows,
                            destinationRow: y, scratch: row, into: intermediate + y * sourceWidth)
                    }
                }
            } else {
                ParallelRows.forEachBand(of: height, pixelsPerItem: sourceWidth) { band in
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
        }
        let output = try [UInt8](unsafeUninitializedImageSized: byteCount) { buffer, initialized in
            let destination = UnsafeMutableRawPointer(buffer.baseAddress!)
            ParallelRows.forEachBand(of: size.height, pixelsPerItem: size.width * 2) { band in
                let row = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: size.width)
                defer { row.deallocate() }
                for y in band {
                    if rowsFirst {
                        Bitmap.resample(intermediate + y * sourceWidth, with: columns, into: row)
                    } else {
                        Bitmap.blendRows(intermediate, width: size.width, weights: rows, destinationRow: y, into: row)
                    }
                    Bitmap.packRow(
                        row, width: size.width, premultiplied: premultiplying,
                        into: destination, y: y, format: format)
                }
            }
            initialized = byteCount
        }
        return Bitmap(width: size.width, height: size.height, pixelFormat: pixelFormat, pixels: output)
    }

    /// The float pixels ``resized(to:)`` holds between its two passes when resampling a
    /// `source`-sized bitmap to `destination`: every source row at the destination's width,
    /// or, for shapes where that would be far larger (a 1 × 30,000,000 strip reduced to
    /// 32 × 32), every destination row at the source's width. Each takes 16 bytes.
    public static func resamplingScratchPixels(from source: PixelSize, to destination: PixelSize) -> Int {
        let columnsFirst = source.height.multipliedReportingOverflow(by: destination.width)
        let rowsFirst = destination.height.multipliedReportingOverflow(by: source.width)
        if columnsFirst.overflow { return rowsFirst.overflow ? Int.max : rowsFirst.partialValue }
        return resamplesRowsFirst(from: source, to: destination) ? rowsFirst.partialValue : columnsFirst.partialValue
    }

    /// Whether resampling `source` to `destination` blends rows before columns: only
    /// where resampling columns first would hold over four times as many pixels between the
    /// passes, so ordinary shapes keep the order ``IncrementalResizer`` repeats.
    package static func resamplesRowsFirst(from source: PixelSize, to destination: PixelSize) -> Bool {
        let columnsFirst = Double(source.height) * Double(destination.width)
        let rowsFirst = Double(destination.height) * Double(source.width)
        return columnsFirst > 4 * rowsFirst
    }

    /// Destination row `y` blended along y straight from the source's packed rows: each
    /// source row in its span is unpacked into `scratch` and added in with its weight.
    private static func blendSourceRows(
        _ source: UnsafeRawPointer, width: Int, format: PixelFormat, premultiplying: Bool, weights rows: ResamplingWeights,
        destinationRow y: Int, scratch: UnsafeMutablePointer<SIMD4<Float>>, into output: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        rows.weights.withUnsafeBufferPointer { weights in
            let start = rows.weightStart[y], end = rows.weightStart[y + 1]
            for x in 0..<width { output[x] = SIMD4<Float>() }
            for tap in start..<end {
                Bitmap.unpackRow(
                    rows.firstSource[y] + tap - start, of: source, width: width, format: format, into: scratch,
                    premultiplying: premultiplying)
                let weight = weights[tap]
                for x in 0..<width { output[x] += scratch[x] * weight }
            }
        }
    }

    /// One row resampled along x: each destination pixel is the weighted sum of its span.
    package static func resample(
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
