/// A resized copy of an RGBA8 bitmap that changes in places, as an animation's canvas
/// does: only the output pixels whose source window meets a changed rectangle are
/// computed again.
///
/// The arithmetic is ``Bitmap/resized(to:)``'s, step for step, so after each update the
/// output equals resizing the whole source; the cost of an update follows the changed
/// area, not the source's.
package struct IncrementalResizer {
    /// The size of the source.
    package let sourceSize: PixelSize
    /// The size of the output.
    package let size: PixelSize
    private let columns: ResamplingWeights
    private let rows: ResamplingWeights
    /// The first pass: every source row at the output's width, premultiplied, as floats.
    private var intermediate: [Float]
    /// The output pixels, RGBA8.
    private var pixels: [UInt8]

    /// A resizer from `source` to `destination`, whose source starts fully transparent,
    /// or ``ImageError/Code/imageTooLarge`` when its two buffers cannot be had.
    package init(source: PixelSize, destination: PixelSize) throws(ImageError) {
        sourceSize = source
        size = destination
        columns = ResamplingWeights(source: source.width, destination: destination.width)
        rows = ResamplingWeights(source: source.height, destination: destination.height)
        // A transparent source resizes to zeros in both passes.
        intermediate = try [Float](repeating: 0, imageSized: source.height, destination.width, 4)
        pixels = try [UInt8](repeating: 0, imageSized: destination.width, destination.height, 4)
    }

    /// The output as it stands.
    package var bitmap: Bitmap {
        Bitmap(width: size.width, height: size.height, pixels: pixels)
    }

    /// Recomputes the output where the source (`source`, RGBA8 of ``sourceSize``) changed
    /// within `changedColumns` × `changedRows` (clipped to the source).
    package mutating func update(from source: [UInt8], changedColumns: Range<Int>, changedRows: Range<Int>) {
        let sourceColumns = changedColumns.clamped(to: 0..<sourceSize.width)
        let sourceRows = changedRows.clamped(to: 0..<sourceSize.height)
        guard !sourceColumns.isEmpty, !sourceRows.isEmpty else { return }
        let outputColumns = Self.affected(by: sourceColumns, in: columns)
        let outputRows = Self.affected(by: sourceRows, in: rows)
        source.withUnsafeBufferPointer { source in
            resampleRows(source.baseAddress!, sourceRows: sourceRows, outputColumns: outputColumns)
        }
        resampleColumns(outputRows: outputRows, outputColumns: outputColumns)
    }

    /// The output pixels along one axis whose source span meets `changed`.
    private static func affected(by changed: Range<Int>, in weights: ResamplingWeights) -> Range<Int> {
        var lower = weights.count
        var upper = 0
        for index in 0..<weights.count {
            let first = weights.firstSource[index]
            let end = first + weights.weightStart[index + 1] - weights.weightStart[index]
            if first < changed.upperBound, end > changed.lowerBound {
                lower = min(lower, index)
                upper = index + 1
            }
        }
        return lower < upper ? lower..<upper : 0..<0
    }

    /// The first pass of ``Bitmap/resized(to:)`` for some rows and output columns.
    private mutating func resampleRows(_ source: UnsafePointer<UInt8>, sourceRows: Range<Int>, outputColumns: Range<Int>) {
        let scale: Float = 1 / 255
        let sourceWidth = sourceSize.width
        let outputWidth = size.width
        let columns = columns
        intermediate.withUnsafeMutableBufferPointer { intermediate in
            for y in sourceRows {
                let rowStart = y * sourceWidth * 4
                for x in outputColumns {
                    var red: Float = 0, green: Float = 0, blue: Float = 0, alpha: Float = 0
                    var index = rowStart + columns.firstSource[x] * 4
                    for tap in columns.weightStart[x]..<columns.weightStart[x + 1] {
                        let (r, g, b, a) = (Float(source[index]), Float(source[index + 1]), Float(source[index + 2]), Float(source[index + 3]))
                        let weightedAlpha = a * scale * columns.weights[tap]
                        let colourWeight = weightedAlpha * scale
                        red += r * colourWeight
                        green += g * colourWeight
                        blue += b * colourWeight
                        alpha += weightedAlpha
                        index += 4
                    }
                    let out = (y * outputWidth + x) * 4
                    intermediate[out] = red
                    intermediate[out + 1] = green
                    intermediate[out + 2] = blue
                    intermediate[out + 3] = alpha
                }
            }
        }
    }

    /// The second pass of ``Bitmap/resized(to:)`` for some output rows and columns.
    private mutating func resampleColumns(outputRows: Range<Int>, outputColumns: Range<Int>) {
        let maximum: Float = 255
        let outputWidth = size.width
        let rows = rows
        let intermediate = intermediate
        pixels.withUnsafeMutableBufferPointer { output in
            for y in outputRows {
                for x in outputColumns {
                    var sum: (Float, Float, Float, Float) = (0, 0, 0, 0)
                    var sourceRow = rows.firstSource[y]
                    for tap in rows.weightStart[y]..<rows.weightStart[y + 1] {
                        let weight = rows.weights[tap]
                        let from = (sourceRow * outputWidth + x) * 4
                        sum.0 += intermediate[from] * weight
                        sum.1 += intermediate[from + 1] * weight
                        sum.2 += intermediate[from + 2] * weight
                        sum.3 += intermediate[from + 3] * weight
                        sourceRow += 1
                    }
                    let alpha = sum.3
                    let unpremultiply = alpha > 0 ? maximum / alpha : 0
                    let out = (y * outputWidth + x) * 4
                    output[out] = UInt8(min(maximum, max(0, sum.0 * unpremultiply + 0.5)))
                    output[out + 1] = UInt8(min(maximum, max(0, sum.1 * unpremultiply + 0.5)))
                    output[out + 2] = UInt8(min(maximum, max(0, sum.2 * unpremultiply + 0.5)))
                    output[out + 3] = UInt8(min(maximum, max(0, alpha * maximum + 0.5)))
                }
            }
        }
    }
}
