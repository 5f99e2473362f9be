import WebImageCore

extension Bitmap {
    /// Below this sigma the blur convolves with the sampled Gaussian itself (at most 7
    /// taps); from it on, with Deriche's recursive filter, whose cost does not grow.
    static let recursiveBlurMinimumSigma = 1.0

    /// The width of the column strips the vertical pass works on: their rows stay in cache.
    private static let stripWidth = 128

    /// Below this sigma an opaque 8-bit blur runs the integer mask of
    /// ``IntegerGaussianKernel`` (2⌈3σ⌉ + 1 taps a pass), from it on Deriche's filter.
    ///
    /// The crossover as measured (`scripts/blur-crossover.sh`, one optimised process, a
    /// 6 MP picture on the 2-core VM): on 2026-11-28 under load the mask took 0.24–0.50 of
    /// Deriche's time per megapixel up to sigma 4 and 0.99 at 10; on an idle machine on
    /// 2026-12-06, 0.18–0.34 up to 3, 0.87 and 1.33 at 10 in two runs, 1.72 at 12. Where the
    /// times meet, memory decides: `blur=10` of the 20 MP photo took 0.91× vips' time and
    /// 1.11× its peak RSS with the mask against 0.88× and 1.26× with Deriche's float
    /// picture (`Benchmarks/README.md`), so sigma 10 takes the mask, and from 11 on
    /// Deriche's filter, whose cost does not grow.
    static let integerBlurMaximumSigma = 11.0

    /// The integer mask for an opaque 8-bit blur of `sigma`; `nil` where the float
    /// filters are used (transparent or 16-bit pixels, larger sigmas).
    static func integerKernel(sigma: Double, format: PixelFormat, transparent: Bool) -> IntegerGaussianKernel? {
        guard format == .rgba8, !transparent, sigma < integerBlurMaximumSigma else { return nil }
        return IntegerGaussianKernel(sigma: sigma)
    }

    /// This bitmap blurred with a Gaussian of `sigma` pixels, colour premultiplied by
    /// alpha; edges repeat the border pixels. Throws `ImageError.Code.imageTooLarge`
    /// when its float pixels cannot be had.
    package func gaussianBlurred(sigma: Double) throws(ImageError) -> Bitmap {
        guard sigma > 0, sigma.isFinite, width > 0, height > 0 else { return self }
        let premultiplying = containsTransparency
        if let kernel = Bitmap.integerKernel(sigma: sigma, format: pixelFormat, transparent: premultiplying) {
            return try blurred(with: kernel)
        }
        return try blurredWithFloats(sigma: sigma, premultiplying: premultiplying)
    }

    /// The float blur: the sampled Gaussian below `recursiveBlurMinimumSigma`, Deriche's
    /// filter from it on.
    func blurredWithFloats(sigma: Double, premultiplying: Bool) throws(ImageError) -> Bitmap {
        let floats = try blurredFloats(sigma: sigma, premultiplying: premultiplying)
        defer { FloatPixelMemory.deallocate(floats) }
        let width = self.width, format = pixelFormat
        let output = try [UInt8](unsafeUninitializedImageSized: pixels.count) { buffer, initialized in
            let destination = UnsafeMutableRawPointer(buffer.baseAddress!)
            ParallelRows.forEachBand(of: height, pixelsPerItem: width) { band in
                for y in band {
                    Bitmap.packRow(
                        floats + y * width, width: width, premultiplied: premultiplying,
                        into: destination, y: y, format: format)
                }
            }
            initialized = width * height * format.bytesPerPixel
        }
        return Bitmap(width: width, height: height, pixelFormat: format, pixels: output)
    }

    /// This opaque 8-bit bitmap through `kernel` across, into 16-bit rows (both cores),
    /// then down into bytes (both cores). Throws `ImageError.Code.imageTooLarge` when
    /// its 16-bit rows cannot be had.
    func blurred(with kernel: IntegerGaussianKernel) throws(ImageError) -> Bitmap {
        let width = self.width, height = self.height, format = pixelFormat
        let rowValues = width * 4
        // A row's work is about width × taps; ParallelRows counts it in pixels.
        let work = width * kernel.taps
        let across = try FloatPixelMemory.allocate(rowValues * height, of: UInt16.self)
        defer { FloatPixelMemory.deallocate(across) }
        pixels.withUnsafeBytes { source in
            let bytes = source.baseAddress!.assumingMemoryBound(to: UInt8.self)
            ParallelRows.forEachBand(of: height, pixelsPerItem: work) { band in
                let padded = UnsafeMutablePointer<UInt16>.allocate(capacity: kernel.paddedCount(pixels: width, channels: 4))
                defer { padded.deallocate() }
                for y in band {
                    kernel.pad(bytes + y * rowValues, pixels: width, channels: 4, into: padded)
                    kernel.blurAcross(padded, count: rowValues, channels: 4, into: across + y * rowValues)
                }
            }
        }
        let output = try [UInt8](unsafeUninitializedImageSized: rowValues, height) { buffer, initialized in
            let destination = buffer.baseAddress!
            ParallelRows.forEachBand(of: height, pixelsPerItem: work) { band in
                let rows = UnsafeMutablePointer<UnsafePointer<UInt16>>.allocate(capacity: kernel.taps)
                defer { rows.deallocate() }
                for y in band {
                    for tap in 0..<kernel.taps {
                        rows[tap] = UnsafePointer(across + min(max(y + tap - kernel.radius, 0), height - 1) * rowValues)
                    }
                    kernel.blurDown(rows, count: rowValues, into: destination + y * rowValues)
                }
            }
            initialized = rowValues * height
        }
        return Bitmap(width: width, height: height, pixelFormat: format, pixels: output)
    }

    /// The blurred pixels as floats (premultiplied when `premultiplying`), row after row;
    /// the caller releases them with `FloatPixelMemory.deallocate(_:)`.
    package func blurredFloats(sigma: Double, premultiplying: Bool) throws(ImageError) -> UnsafeMutablePointer<SIMD4<Float>> {
        let width = self.width, height = self.height, format = pixelFormat
        let floats = try FloatPixelMemory.allocate(width * height)
        let recursive = sigma >= Bitmap.recursiveBlurMinimumSigma
        let coefficients = DericheCoefficients(sigma: sigma)
        let kernel = recursive ? [] : Bitmap.gaussianKernel(sigma: sigma)
        pixels.withUnsafeBytes { source in
            let source = source.baseAddress!
            ParallelRows.forEachBand(of: height, pixelsPerItem: width) { band in
                let row = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width)
                defer { row.deallocate() }
                for y in band {
                    Bitmap.unpackRow(y, of: source, width: width, format: format, into: row, premultiplying: premultiplying)
                    if recursive {
                        Bitmap.recursiveBlur(row, count: width, coefficients: coefficients, into: floats + y * width)
                    } else {
                        Bitmap.convolve(row, count: width, kernel: kernel, into: floats + y * width)
                    }
                }
            }
        }
        let strips = (width + Bitmap.stripWidth - 1) / Bitmap.stripWidth
        ParallelRows.forEachBand(of: strips, pixelsPerItem: Bitmap.stripWidth * height) { band in
            let scratch = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: Bitmap.stripWidth * max(height, 8))
            defer { scratch.deallocate() }
            for strip in band {
                let first = strip * Bitmap.stripWidth
                let lanes = min(Bitmap.stripWidth, width - first)
                if recursive {
                    Bitmap.recursiveBlurColumns(
                        floats + first, rows: height, stride: width, lanes: lanes,
                        coefficients: coefficients, scratch: scratch)
                } else {
                    Bitmap.convolveColumns(
                        floats + first, rows: height, stride: width, lanes: lanes,
                        kernel: kernel, scratch: scratch)
                }
            }
        }
        return floats
    }

    /// The sampled Gaussian from -3σ to 3σ, normalised to sum to 1.
    static func gaussianKernel(sigma: Double) -> [Float] {
        let radius = max(1, Int((3 * sigma).rounded(.up)))
        let weights = (-radius...radius).map { offset in exp(-Double(offset * offset) / (2 * sigma * sigma)) }
        let total = weights.reduce(0, +)
        return weights.map { Float($0 / total) }
    }

    /// One row through the causal and anticausal recursive filters, their sum in `output`.
    static func recursiveBlur(
        _ input: UnsafePointer<SIMD4<Float>>, count: Int, coefficients c: DericheCoefficients,
        into output: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        let (n0, n1, n2, n3) = (c.causal[0], c.causal[1], c.causal[2], c.causal[3])
        let (m1, m2, m3, m4) = (c.anticausal[0], c.anticausal[1], c.anticausal[2], c.anticausal[3])
        let (d1, d2, d3, d4) = (c.feedback[0], c.feedback[1], c.feedback[2], c.feedback[3])
        // Causal, left to right; history before the start repeats the first pixel.
        var x1 = input[0], x2 = input[0], x3 = input[0]
        var y1 = input[0] * c.causalEdgeGain, y2 = y1, y3 = y1, y4 = y1
        for index in 0..<count {
            let x0 = input[index]
            // The newest output enters last, so the chain from one pixel to the next is short.
            let y0 = n0 * x0 + n1 * x1 + n2 * x2 + n3 * x3 - d4 * y4 - d3 * y3 - d2 * y2 - d1 * y1
            output[index] = y0
            (x3, x2, x1) = (x2, x1, x0)
            (y4, y3, y2, y1) = (y3, y2, y1, y0)
        }
        // Anticausal, right to left, added in.
        let last = input[count - 1]
        var a1 = last, a2 = last, a3 = last, a4 = last
        var z1 = last * c.anticausalEdgeGain, z2 = z1, z3 = z1, z4 = z1
        for index in (0..<count).reversed() {
            let z0 = m1 * a1 + m2 * a2 + m3 * a3 + m4 * a4 - d4 * z4 - d3 * z3 - d2 * z2 - d1 * z1
            output[index] += z0
            (a4, a3, a2, a1) = (a3, a2, a1, input[index])
            (z4, z3, z2, z1) = (z3, z2, z1, z0)
        }
    }

    /// The recursive filter down `lanes` neighbouring columns at once, in place; `scratch`
    /// holds the causal pass (`rows × lanes` pixels).
    private static func recursiveBlurColumns(
        _ pixels: UnsafeMutablePointer<SIMD4<Float>>, rows: Int, stride: Int, lanes: Int,
        coefficients c: DericheCoefficients, scratch: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        func input(_ row: Int) -> UnsafeMutablePointer<SIMD4<Float>> { pixels + min(max(row, 0), rows - 1) * stride }
        // The anticausal pass's last four outputs, in a ring of four rows, and in a fifth
        // row the causal pass's steady state above the top edge.
        let ring = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: 5 * lanes)
        defer { ring.deallocate() }
        let aboveTop = ring + 4 * lanes
        for lane in 0..<lanes { aboveTop[lane] = pixels[lane] * c.causalEdgeGain }
        // Causal, top to bottom, into scratch (row r at scratch + r × lanes).
        func causal(_ row: Int) -> UnsafeMutablePointer<SIMD4<Float>> { row >= 0 ? scratch + row * lanes : aboveTop }
        for row in 0..<rows {
            c.causalRow(
                inputs: (input(row), input(row - 1), input(row - 2), input(row - 3)),
                outputs: (causal(row - 1), causal(row - 2), causal(row - 3), causal(row - 4)),
                into: scratch + row * lanes, lanes: lanes)
        }
        // Anticausal, bottom to top. The sum of both replaces the consumed causal row in
        // scratch, since the input rows below are still needed; it is copied back at the end.
        func slot(_ row: Int) -> UnsafeMutablePointer<SIMD4<Float>> { ring + (row & 3) * lanes }
        let bottom = pixels + (rows - 1) * stride
        for lane in 0..<lanes {
            let edge = bottom[lane] * c.anticausalEdgeGain
            for row in 0..<4 { slot(row)[lane] = edge }
        }
        for row in Swift.stride(from: rows - 1, through: 0, by: -1) {
            let value = slot(row)
            c.anticausalRow(
                inputs: (input(row + 1), input(row + 2), input(row + 3), input(row + 4)),
                outputs: (slot(row + 1), slot(row + 2), slot(row + 3), slot(row + 4)),
                into: value, lanes: lanes)
            let sum = scratch + row * lanes
            for lane in 0..<lanes { sum[lane] += value[lane] }
        }
        for row in 0..<rows {
            (pixels + row * stride).update(from: scratch + row * lanes, count: lanes)
        }
    }

    /// One row convolved with `kernel` (odd length, centred), edges repeated.
    static func convolve(
        _ input: UnsafePointer<SIMD4<Float>>, count: Int, kernel: [Float],
        into output: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        let radius = kernel.count / 2
        for index in 0..<count {
            var sum = SIMD4<Float>()
            for tap in 0..<kernel.count {
                sum += input[min(max(index + tap - radius, 0), count - 1)] * kernel[tap]
            }
            output[index] = sum
        }
    }

    /// `kernel` down `lanes` neighbouring columns, in place; `scratch` holds the result
    /// until every input row has been read.
    private static func convolveColumns(
        _ pixels: UnsafeMutablePointer<SIMD4<Float>>, rows: Int, stride: Int, lanes: Int,
        kernel: [Float], scratch: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        let radius = kernel.count / 2
        for row in 0..<rows {
            let out = scratch + row * lanes
            out.update(repeating: SIMD4(), count: lanes)
            for tap in 0..<kernel.count {
                let source = pixels + min(max(row + tap - radius, 0), rows - 1) * stride
                let weight = kernel[tap]
                for lane in 0..<lanes { out[lane] += source[lane] * weight }
            }
        }
        for row in 0..<rows {
            (pixels + row * stride).update(from: scratch + row * lanes, count: lanes)
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
