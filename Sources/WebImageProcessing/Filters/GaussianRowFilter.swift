import WebImageCore

/// The Gaussian blur of `Bitmap.gaussianBlurred(sigma:)` (and, with an amount, the
/// unsharp mask of ``SharpeningImageTransformer``) over a stream of opaque RGB rows,
/// holding a window of rows instead of the picture.
///
/// A plain blur of a sigma below `Bitmap.integerBlurMaximumSigma` runs the integer mask of
/// ``IntegerGaussianKernel`` instead: arriving rows wait as bytes, and each block blurs
/// the rows it newly needs across, then its own rows down, each pass split over the
/// cores; the mask reaches its radius of rows, so the result is the whole-picture one
/// exactly.
///
/// Otherwise each row is blurred across as it arrives, exactly as the whole-picture blur does. Down
/// the columns, rows go out in blocks of ``blockRows``: a sampled Gaussian (sigma below
/// 1) needs its radius of rows below a block, so the result is the whole-picture one
/// exactly; Deriche's recursive filter runs its causal half top to bottom exactly as
/// well, and its anticausal half from ``lookahead(sigma:)`` rows below the block as if the
/// picture ended there. That filter forgets its start by a factor e^(-1.37 d/σ) over d
/// rows, so at 6σ the difference from the whole-picture blur is below a thousandth of
/// a level; the last block, which reaches the bottom, is exact.
///
/// Memory is the window of rows as floats: (``blockRows`` + 6σ + 8) rows for the
/// horizontal pass and ``blockRows`` + 4 for the causal one, never more than the picture.
final class GaussianRowFilter: RGBRowFilter {
    /// Rows finished and passed on at once.
    static let blockRows = 32
    /// The columns a band works on together, so that its rows stay in cache.
    private static let laneCount = 128

    private let width: Int
    private let height: Int
    /// The unsharp mask's amount; `nil` for a plain blur.
    private let amount: Float?
    private let recursive: Bool
    private let coefficients: DericheCoefficients
    private let kernel: [Float]
    /// The integer mask, for a plain blur of a small sigma.
    private let integer: IntegerGaussianKernel?
    /// Integer mode: the incoming rows as bytes, and the rows blurred across as 8.8
    /// fixed-point values (row `r` in slot `r % capacity` of both).
    private let incoming: UnsafeMutablePointer<UInt8>
    private let across: UnsafeMutablePointer<UInt16>
    /// Integer mode: the first row not yet blurred across.
    private var acrossNext = 0
    /// Rows below a block that must have arrived before it is finished.
    private let reach: Int
    /// Rows held after the horizontal pass (row `r` in slot `r % capacity`).
    private let capacity: Int
    private let horizontal: UnsafeMutablePointer<SIMD4<Float>>
    /// The causal pass of the current block and the four rows before it (recursive only).
    private let causal: UnsafeMutablePointer<SIMD4<Float>>
    private let causalCapacity: Int
    /// The incoming rows as they came, for the unsharp mask (same slots as `horizontal`).
    private var originals: [UInt8]
    /// The finished rows of a block.
    private var output: [UInt8]
    /// Rows taken so far.
    private var received = 0
    /// The first row not yet passed on.
    private var next = 0

    /// The rows the anticausal filter starts below a block for `sigma`.
    static func lookahead(sigma: Double) -> Int { Int((6 * sigma).rounded(.up)) + 4 }

    /// A filter for a `size` picture blurring with a Gaussian of `sigma` (positive and
    /// finite), sharpening by `amount` when given.
    ///
    /// Throws `ImageError.Code.imageTooLarge` when its window of rows cannot be had.
    init(size: PixelSize, sigma: Double, amount: Float? = nil) throws(ImageError) {
        width = size.width
        height = size.height
        self.amount = amount
        integer = amount == nil ? Bitmap.integerKernel(sigma: sigma, format: .rgba8, transparent: false) : nil
        recursive = integer == nil && sigma >= Bitmap.recursiveBlurMinimumSigma
        coefficients = DericheCoefficients(sigma: sigma)
        kernel = recursive || integer != nil ? [] : Bitmap.gaussianKernel(sigma: sigma)
        if let integer {
            reach = integer.radius
            // The block, the radius of rows above it and below it.
            capacity = max(1, min(height, Self.blockRows + 2 * reach))
        } else {
            reach = recursive ? Self.lookahead(sigma: sigma) : kernel.count / 2
            capacity = max(1, min(height, Self.blockRows + reach + 4))
        }
        causalCapacity = recursive ? min(height, Self.blockRows + 4) : 0
        // Every buffer comes from the fallible allocator; when one cannot be had, those
        // already taken are given back before the error goes up.
        var taken: [UnsafeMutablePointer<UInt8>] = []
        func take<Element>(_ count: Int, of type: Element.Type) throws(ImageError) -> UnsafeMutablePointer<Element> {
            do throws(ImageError) {
                let memory = try FloatPixelMemory.allocate(count, of: type)
                taken.append(UnsafeMutableRawPointer(memory).assumingMemoryBound(to: UInt8.self))
                return memory
            } catch {
                for memory in taken { FloatPixelMemory.deallocate(memory) }
                throw error
            }
        }
        let integerValues = integer == nil ? 1 : capacity * width * 3
        incoming = try take(integerValues, of: UInt8.self)
        across = try take(integerValues, of: UInt16.self)
        horizontal = try take(integer == nil ? capacity * width : 1, of: SIMD4<Float>.self)
        causal = try take(max(1, causalCapacity * width), of: SIMD4<Float>.self)
        do throws(ImageError) {
            originals = amount == nil ? [] : try [UInt8](repeating: 0, imageSized: capacity, width, 3)
            output = try [UInt8](repeating: 0, imageSized: min(height, Self.blockRows), width, 3)
        } catch {
            for memory in taken { FloatPixelMemory.deallocate(memory) }
            throw error
        }
    }

    deinit {
        FloatPixelMemory.deallocate(incoming)
        FloatPixelMemory.deallocate(across)
        FloatPixelMemory.deallocate(horizontal)
        FloatPixelMemory.deallocate(causal)
    }

    func consume(
        _ rows: UnsafeRawBufferPointer, count: Int,
        emit: (_ rows: UnsafeRawBufferPointer, _ count: Int) throws(ImageError) -> Void
    ) throws(ImageError) {
        guard width > 0 else { return }
        var taken = 0
        while taken < count, received < height {
            let due = min(next + Self.blockRows + reach, height)
            let batch = min(count - taken, due - received)
            takeRows(rows.baseAddress! + taken * width * 3, count: batch)
            taken += batch
            while next < height, received >= min(next + Self.blockRows + reach, height) {
                try finishBlock(emit: emit)
            }
        }
    }

    func finish(emit: (_ rows: UnsafeRawBufferPointer, _ count: Int) throws(ImageError) -> Void) throws(ImageError) {
        guard received == height else {
            throw ImageError(.badImageData, "the blur was given \(received) of \(height) rows")
        }
    }

    /// Blurs `count` new rows across into their slots (and keeps them for the mask).
    private func takeRows(_ rows: UnsafeRawPointer, count: Int) {
        let width = self.width, first = received
        if integer != nil {
            for index in 0..<count {
                (incoming + ((first + index) % capacity) * width * 3)
                    .update(from: rows.assumingMemoryBound(to: UInt8.self) + index * width * 3, count: width * 3)
            }
            received += count
            return
        }
        ParallelRows.forEachBand(of: count, pixelsPerItem: width) { band in
            let row = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width)
            defer { row.deallocate() }
            for index in band {
                let source = rows + index * width * 3
                let slot = (first + index) % capacity
                Bitmap.unpackRGBRow(source, count: width, into: row)
                if recursive {
                    Bitmap.recursiveBlur(row, count: width, coefficients: coefficients, into: horizontal + slot * width)
                } else {
                    Bitmap.convolve(row, count: width, kernel: kernel, into: horizontal + slot * width)
                }
            }
        }
        if amount != nil {
            originals.withUnsafeMutableBytes { originals in
                for index in 0..<count {
                    let slot = (first + index) % capacity
                    (originals.baseAddress! + slot * width * 3).copyMemory(from: rows + index * width * 3, byteCount: width * 3)
                }
            }
        }
        received += count
    }

    /// Finishes the rows from `next` on (a block, or fewer at the bottom) and passes them on.
    private func finishBlock(emit: (_ rows: UnsafeRawBufferPointer, _ count: Int) throws(ImageError) -> Void) throws(ImageError) {
        let rows = next..<min(next + Self.blockRows, height)
        let windowEnd = min(next + Self.blockRows + reach, height) - 1
        let width = self.width
        if let integer {
            blurWithIntegers(integer, rows: rows, windowEnd: windowEnd)
        } else {
            blurWithFloats(rows: rows, windowEnd: windowEnd)
        }
        next = rows.upperBound
        let emitted = output.withUnsafeBytes { output in
            Result { () throws(ImageError) in try emit(UnsafeRawBufferPointer(rebasing: output[..<(rows.count * width * 3)]), rows.count) }
        }
        try emitted.get()
    }

    /// Integer mode: blurs the rows up to `windowEnd` not yet blurred across, then the
    /// block's `rows` down into `output`.
    private func blurWithIntegers(_ kernel: IntegerGaussianKernel, rows: Range<Int>, windowEnd: Int) {
        let width = self.width, height = self.height, capacity = self.capacity
        let values = width * 3
        let incoming = self.incoming, across = self.across
        // A row's work is about width × taps; ParallelRows counts it in pixels.
        let work = width * kernel.taps
        let first = acrossNext
        if first <= windowEnd {
            ParallelRows.forEachBand(of: windowEnd - first + 1, pixelsPerItem: work) { band in
                let padded = UnsafeMutablePointer<UInt16>.allocate(capacity: kernel.paddedCount(pixels: width, channels: 3))
                defer { padded.deallocate() }
                for index in band {
                    let slot = (first + index) % capacity
                    kernel.pad(incoming + slot * values, pixels: width, channels: 3, into: padded)
                    kernel.blurAcross(padded, count: values, channels: 3, into: across + slot * values)
                }
            }
            acrossNext = windowEnd + 1
        }
        output.withUnsafeMutableBytes { output in
            let output = output.baseAddress!.assumingMemoryBound(to: UInt8.self)
            ParallelRows.forEachBand(of: rows.count, pixelsPerItem: work) { band in
                let sources = UnsafeMutablePointer<UnsafePointer<UInt16>>.allocate(capacity: kernel.taps)
                defer { sources.deallocate() }
                for index in band {
                    let row = rows.lowerBound + index
                    for tap in 0..<kernel.taps {
                        let source = min(max(row + tap - kernel.radius, 0), height - 1)
                        sources[tap] = UnsafePointer(across + (source % capacity) * values)
                    }
                    kernel.blurDown(sources, count: values, into: output + index * values)
                }
            }
        }
    }

    /// Float mode: the block's `rows` down the columns of the horizontal pass, Deriche's
    /// filter or the sampled Gaussian, into `output`.
    private func blurWithFloats(rows: Range<Int>, windowEnd: Int) {
        let width = self.width
        output.withUnsafeMutableBytes { output in
            let output = output.baseAddress!
            originals.withUnsafeBytes { originals in
                ParallelRows.forEachBand(of: width, pixelsPerItem: windowEnd - rows.lowerBound + 1) { columns in
                    let lanes = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: 6 * Self.laneCount)
                    defer { lanes.deallocate() }
                    for first in stride(from: columns.lowerBound, to: columns.upperBound, by: Self.laneCount) {
                        let count = min(Self.laneCount, columns.upperBound - first)
                        let band = Band(
                            first: first, count: count, rows: rows, windowEnd: windowEnd, output: output,
                            originals: originals.baseAddress, scratch: lanes)
                        if recursive {
                            blurRecursively(band)
                        } else {
                            convolveColumns(band)
                        }
                    }
                }
            }
        }
    }

    /// The columns of one block a thread works on.
    private struct Band {
        let first: Int
        let count: Int
        let rows: Range<Int>
        let windowEnd: Int
        let output: UnsafeMutableRawPointer
        let originals: UnsafeRawPointer?
        /// Room for six rows of `count` float pixels.
        let scratch: UnsafeMutablePointer<SIMD4<Float>>
    }

    /// Row `row`'s horizontal pass from the band's first column.
    @inline(__always)
    private func blurredAcross(_ row: Int, _ band: Band) -> UnsafeMutablePointer<SIMD4<Float>> {
        horizontal + (row % capacity) * width + band.first
    }

    /// Writes a finished row of the band: the blur, or the unsharp mask against the
    /// original pixels.
    private func write(_ smooth: UnsafeMutablePointer<SIMD4<Float>>, row: Int, _ band: Band) {
        let destination = band.output + ((row - band.rows.lowerBound) * width + band.first) * 3
        if let amount, let originals = band.originals {
            let original = band.scratch + 5 * Self.laneCount
            Bitmap.unpackRGBRow(originals + ((row % capacity) * width + band.first) * 3, count: band.count, into: original)
            for lane in 0..<band.count {
                var sharp = original[lane] + (original[lane] - smooth[lane]) * amount
                sharp.w = original[lane].w
                smooth[lane] = sharp
            }
        }
        Bitmap.packRGBRow(smooth, count: band.count, into: destination)
    }

    /// The sampled Gaussian down the band's columns, edges repeated, as
    /// `Bitmap.convolveColumns` computes it.
    private func convolveColumns(_ band: Band) {
        let radius = kernel.count / 2
        let out = band.scratch
        for row in band.rows {
            out.update(repeating: SIMD4(), count: band.count)
            for tap in 0..<kernel.count {
                let source = blurredAcross(min(max(row + tap - radius, 0), height - 1), band)
                let weight = kernel[tap]
                for lane in 0..<band.count { out[lane] += source[lane] * weight }
            }
            write(out, row: row, band)
        }
    }

    /// Deriche's filter down the band's columns: the causal half continues from the rows
    /// before the block, the anticausal half starts at the window's end.
    private func blurRecursively(_ band: Band) {
        let c = coefficients
        let lanes = band.count
        func input(_ row: Int) -> UnsafeMutablePointer<SIMD4<Float>> { blurredAcross(max(row, 0), band) }
        // The scratch's fifth row holds the sum later; until then, the causal pass's
        // steady state above the top edge.
        let aboveTop = band.scratch + 4 * Self.laneCount
        if band.rows.lowerBound < 4 {
            let top = input(0)
            for lane in 0..<lanes { aboveTop[lane] = top[lane] * c.causalEdgeGain }
        }
        func causalRow(_ row: Int) -> UnsafeMutablePointer<SIMD4<Float>> {
            row >= 0 ? causal + (row % causalCapacity) * width + band.first : aboveTop
        }
        for row in band.rows {
            c.causalRow(
                inputs: (input(row), input(row - 1), input(row - 2), input(row - 3)),
                outputs: (causalRow(row - 1), causalRow(row - 2), causalRow(row - 3), causalRow(row - 4)),
                into: causalRow(row), lanes: lanes)
        }
        // Anticausal, from the window's end up; its last four outputs in a ring of four
        // rows of the scratch, the sum in the fifth.
        let end = band.windowEnd
        func below(_ row: Int) -> UnsafeMutablePointer<SIMD4<Float>> { blurredAcross(min(row, end), band) }
        let sum = band.scratch + 4 * Self.laneCount
        func slot(_ row: Int) -> UnsafeMutablePointer<SIMD4<Float>> { band.scratch + (row & 3) * Self.laneCount }
        let bottom = below(end)
        for lane in 0..<lanes {
            let edge = bottom[lane] * c.anticausalEdgeGain
            for row in 0..<4 { slot(row)[lane] = edge }
        }
        for row in stride(from: end, through: band.rows.lowerBound, by: -1) {
            let z0 = slot(row)
            c.anticausalRow(
                inputs: (below(row + 1), below(row + 2), below(row + 3), below(row + 4)),
                outputs: (slot(row + 1), slot(row + 2), slot(row + 3), slot(row + 4)),
                into: z0, lanes: lanes)
            if band.rows.contains(row) {
                let causalPart = causalRow(row)
                for lane in 0..<lanes { sum[lane] = causalPart[lane] + z0[lane] }
                write(sum, row: row, band)
            }
        }
    }
}
