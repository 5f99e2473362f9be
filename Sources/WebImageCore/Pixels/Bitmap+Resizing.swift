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
        let output =
            Self.resamplesRowsFirst(from: self.size, to: size)
            ? try resizedRowsFirst(to: size, byteCount: byteCount, columns: columns, rows: rows)
            : try resizedColumnsFirst(to: size, byteCount: byteCount, columns: columns, rows: rows)
        return Bitmap(width: size.width, height: size.height, pixelFormat: pixelFormat, pixels: output)
    }

    /// The resized pixels, columns first: each band of output rows walks down the source,
    /// resampling each source row its span needs along x into a ring of rows at the
    /// output's width, and blends each output row from the ring. Only the widest span of
    /// rows is held per band (a 754 × 425 → 533 × 300 fill held 3.6 MB of floats between
    /// two whole passes, and holds 2 × 9 rows, 150 KB, this way); a band resamples again
    /// the few source rows its span shares with the band above, and the arithmetic is the
    /// two whole passes', so the pixels are the same.
    private func resizedColumnsFirst(
        to size: PixelSize, byteCount: Int, columns: ResamplingWeights, rows: ResamplingWeights
    ) throws(ImageError) -> [UInt8] {
        let heldRows = rows.widestSpan
        let bands = ParallelRows.bandCount
        let (ringPixels, ringOverflow) = heldRows.multipliedReportingOverflow(by: size.width)
        let (allRingPixels, allRingsOverflow) = ringPixels.multipliedReportingOverflow(by: bands)
        guard !ringOverflow, !allRingsOverflow else {
            throw ImageError(.imageTooLarge, "\(heldRows) rows of \(size.width) pixels would take more than the machine's memory")
        }
        let rings = try FloatPixelMemory.allocate(allRingPixels)
        defer { FloatPixelMemory.deallocate(rings) }
        let sourceWidth = width, sourceHeight = height, format = pixelFormat
        let premultiplying = containsTransparency
        return try [UInt8](unsafeUninitializedImageSized: byteCount) { buffer, initialized in
            let destination = UnsafeMutableRawPointer(buffer.baseAddress!)
            pixels.withUnsafeBytes { source in
                let source = source.baseAddress!
                let perOutputRow = sourceWidth * max(1, sourceHeight / size.height) + size.width
                ParallelRows.forEachNumberedBand(of: size.height, pixelsPerItem: perOutputRow) { band, outputRows in
                    let ring = rings + band * ringPixels
                    let sourceRow = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: sourceWidth)
                    let row = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: size.width)
                    defer {
                        sourceRow.deallocate()
                        row.deallocate()
                    }
                    var next = 0  // the next source row to resample into the ring
                    for y in outputRows {
                        let first = rows.firstSource[y]
                        next = max(next, first)
                        while next < first + rows.weightStart[y + 1] - rows.weightStart[y] {
                            Bitmap.unpackRow(
                                next, of: source, width: sourceWidth, format: format, into: sourceRow,
                                premultiplying: premultiplying)
                            Bitmap.resample(sourceRow, with: columns, into: ring + (next % heldRows) * size.width)
                            next += 1
                        }
                        Bitmap.blendRing(ring, heldRows: heldRows, width: size.width, weights: rows, destinationRow: y, into: row)
                        Bitmap.packRow(row, width: size.width, premultiplied: premultiplying, into: destination, y: y, format: format)
                    }
                }
            }
            initialized = byteCount
        }
    }

    /// The resized pixels, rows first, for shapes where resampling columns first would
    /// hold far more (a 1 × 30,000,000 strip reduced to 32 × 32): every output row's span of
    /// source rows blended at the source's width, then each such row resampled along x.
    private func resizedRowsFirst(
        to size: PixelSize, byteCount: Int, columns: ResamplingWeights, rows: ResamplingWeights
    ) throws(ImageError) -> [UInt8] {
        let premultiplying = containsTransparency
        let intermediate = try FloatPixelMemory.allocate(Self.resamplingScratchPixels(from: self.size, to: size))
        defer { FloatPixelMemory.deallocate(intermediate) }
        let sourceWidth = width, format = pixelFormat
        pixels.withUnsafeBytes { source in
            let source = source.baseAddress!
            ParallelRows.forEachBand(of: size.height, pixelsPerItem: sourceWidth * 6) { band in
                let row = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: sourceWidth)
                defer { row.deallocate() }
                for y in band {
                    Bitmap.blendSourceRows(
                        source, width: sourceWidth, format: format, premultiplying: premultiplying, weights: rows,
                        destinationRow: y, scratch: row, into: intermediate + y * sourceWidth)
                }
            }
        }
        return try [UInt8](unsafeUninitializedImageSized: byteCount) { buffer, initialized in
            let destination = UnsafeMutableRawPointer(buffer.baseAddress!)
            ParallelRows.forEachBand(of: size.height, pixelsPerItem: size.width * 2) { band in
                let row = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: size.width)
                defer { row.deallocate() }
                for y in band {
                    Bitmap.resample(intermediate + y * sourceWidth, with: columns, into: row)
                    Bitmap.packRow(row, width: size.width, premultiplied: premultiplying, into: destination, y: y, format: format)
                }
            }
            initialized = byteCount
        }
    }

    /// The float pixels ``resized(to:)`` holds between its two passes when resampling a
    /// `source`-sized bitmap to `destination`: for ordinary shapes, a ring of the widest
    /// vertical span's rows at the destination's width for each of the cores' bands; for
    /// shapes where resampling rows first is chosen (a 1 × 30,000,000 strip reduced to
    /// 32 × 32), every destination row at the source's width. Each takes 16 bytes.
    public static func resamplingScratchPixels(from source: PixelSize, to destination: PixelSize) -> Int {
        let columnsFirst = source.height.multipliedReportingOverflow(by: destination.width)
        let rowsFirst = destination.height.multipliedReportingOverflow(by: source.width)
        if columnsFirst.overflow { return rowsFirst.overflow ? Int.max : rowsFirst.partialValue }
        if resamplesRowsFirst(from: source, to: destination) { return rowsFirst.partialValue }
        let span = ResamplingWeights.widestSpanBound(source: source.height, destination: destination.height)
        let ring = span.multipliedReportingOverflow(by: destination.width)
        let rings = ring.partialValue.multipliedReportingOverflow(by: ParallelRows.bandCount)
        return ring.overflow || rings.overflow ? Int.max : rings.partialValue
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

    /// Destination row `y` along y: the weighted sum of the source rows of its span, each
    /// held in `ring` at slot `row % heldRows`.
    package static func blendRing(
        _ ring: UnsafePointer<SIMD4<Float>>, heldRows: Int, width: Int, weights rows: ResamplingWeights,
        destinationRow y: Int, into row: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        rows.weights.withUnsafeBufferPointer { weights in
            let start = rows.weightStart[y], end = rows.weightStart[y + 1]
            let first = rows.firstSource[y]
            var source = ring + (first % heldRows) * width
            let firstWeight = weights[start]
            for x in 0..<width { row[x] = source[x] * firstWeight }
            for tap in start + 1..<end {
                source = ring + ((first + tap - start) % heldRows) * width
                let weight = weights[tap]
                for x in 0..<width { row[x] += source[x] * weight }
            }
        }
    }
}
