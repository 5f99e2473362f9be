/// Resizes a picture that arrives one source row at a time, top to bottom, holding only
/// the few source rows the vertical filter still needs: a decoder can shrink a large
/// picture without ever holding it whole.
///
/// Each source row is resampled along x as it arrives into a ring of rows at the output's
/// width; an output row is blended along y as soon as the last source row of its span is
/// in. The arithmetic is ``Bitmap/resized(to:)``'s columns-first order step for step, and
/// colour is premultiplied only when a pixel that is not opaque was seen (premultiplying
/// an opaque pixel multiplies by exactly 1), so the result equals resizing the whole
/// picture, bit for bit, wherever ``Bitmap/resized(to:)`` resamples columns first
/// (``Bitmap/resamplesRowsFirst(from:to:)`` is `false`).
///
/// Every buffer is checked and allocated up front: a size that cannot be had throws
/// ``ImageError/Code/imageTooLarge`` instead of trapping.
package final class RowStreamingResizer {
    /// The size of the source.
    package let sourceSize: PixelSize
    /// The size of the output.
    package let size: PixelSize
    /// The layout of the source rows and of the output.
    package let pixelFormat: PixelFormat
    /// The source rows held at once, resampled to the output's width: the widest span of
    /// the vertical filter.
    package let heldRows: Int
    /// The source rows received so far.
    package private(set) var receivedRows = 0

    private let mayBeTransparent: Bool
    private var sawTransparency = false
    private let columns: ResamplingWeights
    private let rows: ResamplingWeights
    private let outputByteCount: Int
    /// `heldRows` rows of `size.width` float pixels, source row `r` in slot `r % heldRows`.
    private let ring: UnsafeMutablePointer<SIMD4<Float>>
    /// One source row as float pixels.
    private let sourceRow: UnsafeMutablePointer<SIMD4<Float>>
    /// The output as float pixels, packed once the last row is in (only then is it known
    /// whether any pixel is transparent).
    private let output: UnsafeMutablePointer<SIMD4<Float>>
    private var writtenRows = 0

    /// A resizer from `source` to `destination` for rows laid out as `pixelFormat`;
    /// `mayBeTransparent` is `false` when the source is known to be opaque (no alpha
    /// channel, no tRNS), which spares the premultiplication.
    ///
    /// - Throws: ``ImageError/Code/imageTooLarge`` when the output or the rows held
    ///   cannot be had.
    package init(
        source: PixelSize, destination: PixelSize, pixelFormat: PixelFormat, mayBeTransparent: Bool
    ) throws(ImageError) {
        precondition(source.width > 0 && source.height > 0, "cannot resize an empty source")
        precondition(destination.width > 0 && destination.height > 0, "cannot resize to an empty size")
        let (pixelCount, pixelsOverflow) = destination.width.multipliedReportingOverflow(by: destination.height)
        let (byteCount, bytesOverflow) = pixelCount.multipliedReportingOverflow(by: pixelFormat.bytesPerPixel)
        guard !pixelsOverflow, !bytesOverflow, byteCount <= FloatPixelMemory.largestBuffer else {
            throw ImageError(
                .imageTooLarge, "a \(destination.width)x\(destination.height) bitmap would take more than the machine's memory")
        }
        sourceSize = source
        size = destination
        self.pixelFormat = pixelFormat
        self.mayBeTransparent = mayBeTransparent
        outputByteCount = byteCount
        columns = ResamplingWeights(source: source.width, destination: destination.width)
        rows = ResamplingWeights(source: source.height, destination: destination.height)
        let widest = rows.widestSpan
        heldRows = widest
        let (ringCount, ringOverflow) = widest.multipliedReportingOverflow(by: destination.width)
        guard !ringOverflow else {
            throw ImageError(.imageTooLarge, "\(widest) rows of \(destination.width) pixels would take more than the machine's memory")
        }
        let ring = try FloatPixelMemory.allocate(ringCount)
        let sourceRow: UnsafeMutablePointer<SIMD4<Float>>
        do {
            sourceRow = try FloatPixelMemory.allocate(source.width)
        } catch {
            FloatPixelMemory.deallocate(ring)
            throw error
        }
        do {
            output = try FloatPixelMemory.allocate(pixelCount)
        } catch {
            FloatPixelMemory.deallocate(ring)
            FloatPixelMemory.deallocate(sourceRow)
            throw error
        }
        self.ring = ring
        self.sourceRow = sourceRow
    }

    deinit {
        FloatPixelMemory.deallocate(ring)
        FloatPixelMemory.deallocate(sourceRow)
        FloatPixelMemory.deallocate(output)
    }

    /// The bytes this resizer holds besides the output: the ring and one source row as floats.
    package var heldBytes: Int {
        (heldRows * size.width + sourceSize.width) * MemoryLayout<SIMD4<Float>>.stride
    }

    /// Takes the next source row: `sourceSize.width` pixels laid out as ``pixelFormat``.
    package func append(row: UnsafeRawPointer) {
        precondition(receivedRows < sourceSize.height, "more rows than the source has")
        let width = sourceSize.width
        if mayBeTransparent, !sawTransparency {
            sawTransparency = Self.hasTransparency(row, width: width, format: pixelFormat)
        }
        Bitmap.unpackRow(0, of: row, width: width, format: pixelFormat, into: sourceRow, premultiplying: mayBeTransparent)
        Bitmap.resample(sourceRow, with: columns, into: ring + (receivedRows % heldRows) * size.width)
        receivedRows += 1
        while writtenRows < size.height, spanEnd(of: writtenRows) <= receivedRows {
            blend(outputRow: writtenRows)
            writtenRows += 1
        }
    }

    /// The resized picture, once every source row is in.
    ///
    /// Throws ``ImageError/Code/imageTooLarge`` when the output's bytes cannot be had.
    package func finish() throws(ImageError) -> Bitmap {
        precondition(receivedRows == sourceSize.height && writtenRows == size.height, "the source rows are not all in")
        let premultiplied = mayBeTransparent && sawTransparency
        let width = size.width, format = pixelFormat, output = output
        let pixels = try [UInt8](unsafeUninitializedImageSized: outputByteCount) { buffer, initialized in
            let destination = UnsafeMutableRawPointer(buffer.baseAddress!)
            for y in 0..<size.height {
                Bitmap.packRow(output + y * width, width: width, premultiplied: premultiplied, into: destination, y: y, format: format)
            }
            initialized = outputByteCount
        }
        return Bitmap(width: size.width, height: size.height, pixelFormat: pixelFormat, pixels: pixels)
    }

    /// One past the last source row output row `y` blends.
    private func spanEnd(of y: Int) -> Int {
        rows.firstSource[y] + rows.weightStart[y + 1] - rows.weightStart[y]
    }

    /// Output row `y` blended along y from the ring, in ``Bitmap/resized(to:)``'s order.
    private func blend(outputRow y: Int) {
        Bitmap.blendRing(ring, heldRows: heldRows, width: size.width, weights: rows, destinationRow: y, into: output + y * size.width)
    }

    /// Whether any pixel of `row` is less than fully opaque.
    private static func hasTransparency(_ row: UnsafeRawPointer, width: Int, format: PixelFormat) -> Bool {
        switch format {
        case .rgba8:
            let bytes = row.assumingMemoryBound(to: UInt8.self)
            for x in 0..<width where bytes[x * 4 + 3] != 0xFF { return true }
        case .rgba16:
            let samples = row.assumingMemoryBound(to: UInt16.self)
            for x in 0..<width where samples[x * 4 + 3] != 0xFFFF { return true }
        }
        return false
    }
}
