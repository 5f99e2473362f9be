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
            let destination = pixels.assumingMemoryBound(to: SIMD4<UInt8>.self) + start
            for x in 0..<width {
                destination[x] = SIMD4<UInt8>(truncatingIfNeeded: rounded(row[x], premultiplied: premultiplied, maximum: 255))
            }
        case .rgba16:
            let destination = pixels.assumingMemoryBound(to: SIMD4<UInt16>.self) + start
            for x in 0..<width {
                destination[x] = SIMD4<UInt16>(truncatingIfNeeded: rounded(row[x], premultiplied: premultiplied, maximum: 65535))
            }
        }
    }

    /// One float pixel as integers from 0 to `maximum`, straight alpha.
    @inline(__always)
    private static func rounded(_ pixel: SIMD4<Float>, premultiplied: Bool, maximum: Float) -> SIMD4<Int32> {
        var straight = pixel
        if premultiplied {
            let alpha = pixel.w
            let factor: Float = alpha > 0 ? 1 / alpha : 0
            straight = pixel * SIMD4(factor, factor, factor, 1)
        }
        let scaled = straight * maximum + 0.5
        let clamped = scaled.clamped(lowerBound: SIMD4(repeating: 0), upperBound: SIMD4(repeating: maximum))
        return SIMD4<Int32>(clamped, rounding: .towardZero)
    }
}
