extension Bitmap {
    /// Reads row `y` of `pixels` (laid out as `format`, `width` pixels a row) as pixels
    /// of four floats from 0 to 1, colour premultiplied by alpha when `premultiplying`;
    /// only `columns` when given, the first of them into `row[0]`.
    ///
    /// Pixel kernels work on such rows: one conversion in, SIMD arithmetic, one out.
    package static func unpackRow(
        _ y: Int, of pixels: UnsafeRawPointer, width: Int, columns: Range<Int>? = nil, format: PixelFormat,
        into row: UnsafeMutablePointer<SIMD4<Float>>, premultiplying: Bool
    ) {
        let start = y * width + (columns?.lowerBound ?? 0)
        let width = columns?.count ?? width
        switch format {
        case .rgba8:
            let source = pixels.assumingMemoryBound(to: SIMD4<UInt8>.self) + start
            let scale = SIMD4<Float>(repeating: 1 / 255)
            if premultiplying {
                for x in 0..<width {
                    let pixel = SIMD4<Float>(source[x]) * scale
                    row[x] = pixel * SIMD4(pixel.w, pixel.w, pixel.w, 1)
                }
            } else {
                for x in 0..<width { row[x] = SIMD4<Float>(source[x]) * scale }
            }
        case .rgba16:
            let source = pixels.assumingMemoryBound(to: SIMD4<UInt16>.self) + start
            let scale = SIMD4<Float>(repeating: 1 / 65535)
            if premultiplying {
                for x in 0..<width {
                    let pixel = SIMD4<Float>(source[x]) * scale
                    row[x] = pixel * SIMD4(pixel.w, pixel.w, pixel.w, 1)
                }
            } else {
                for x in 0..<width { row[x] = SIMD4<Float>(source[x]) * scale }
            }
        }
    }

    /// Writes a row of float pixels (0–1; premultiplied when `premultiplied`) into row
    /// `y` of `pixels` (`width` pixels a row), clamped and rounded to the nearest integer;
    /// only into `columns` when given, from `row[0]`.
    package static func packRow(
        _ row: UnsafePointer<SIMD4<Float>>, width: Int, columns: Range<Int>? = nil, premultiplied: Bool,
        into pixels: UnsafeMutableRawPointer, y: Int, format: PixelFormat
    ) {
        let start = y * width + (columns?.lowerBound ?? 0)
        let width = columns?.count ?? width
        switch format {
        case .rgba8:
            let destination = pixels.assumingMemoryBound(to: UInt8.self) + start * 4
            for x in 0..<width {
                let value = rounded(row[x], premultiplied: premultiplied, maximum: 255)
                let out = destination + x * 4
                out[0] = UInt8(truncatingIfNeeded: value[0])
                out[1] = UInt8(truncatingIfNeeded: value[1])
                out[2] = UInt8(truncatingIfNeeded: value[2])
                out[3] = UInt8(truncatingIfNeeded: value[3])
            }
        case .rgba16:
            let destination = pixels.assumingMemoryBound(to: UInt16.self) + start * 4
            for x in 0..<width {
                let value = rounded(row[x], premultiplied: premultiplied, maximum: 65535)
                let out = destination + x * 4
                out[0] = UInt16(truncatingIfNeeded: value[0])
                out[1] = UInt16(truncatingIfNeeded: value[1])
                out[2] = UInt16(truncatingIfNeeded: value[2])
                out[3] = UInt16(truncatingIfNeeded: value[3])
            }
        }
    }

    /// One float pixel as integers from 0 to `maximum`, straight alpha, rounded to nearest.
    ///
    /// Adding 1.5 × 2²³ makes the float hardware round the value into the low bits of the
    /// significand, which is much faster than a generic SIMD conversion.
    @inline(__always)
    package static func rounded(_ pixel: SIMD4<Float>, premultiplied: Bool, maximum: Float) -> SIMD4<UInt32> {
        var straight = pixel
        if premultiplied {
            let alpha = pixel.w
            let factor: Float = alpha > 0 ? 1 / alpha : 0
            straight = pixel * SIMD4(factor, factor, factor, 1)
        }
        // Clamped to 0…maximum with NaN as 0, by masks: the generic `pointwiseMin` and
        // `pointwiseMax` are not inlined and cost as much as the rest of a row's packing.
        var scaled = straight * maximum
        scaled.replace(with: 0, where: .!(scaled .> 0))
        scaled.replace(with: maximum, where: scaled .> maximum)
        let shifted = scaled + SIMD4(repeating: 12_582_912)
        return unsafeBitCast(shifted, to: SIMD4<UInt32>.self) &- SIMD4(repeating: 0x4B40_0000)
    }
}
