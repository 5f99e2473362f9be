extension Bitmap {
    /// Reads `count` opaque RGB pixels (three bytes each) as the floats
    /// ``unpackRow(_:of:width:columns:format:into:premultiplying:)`` gives for the same
    /// pixels in RGBA with an alpha of 255.
    package static func unpackRGBRow(_ source: UnsafeRawPointer, count: Int, into row: UnsafeMutablePointer<SIMD4<Float>>) {
        let bytes = source.assumingMemoryBound(to: UInt8.self)
        let scale = SIMD4<Float>(repeating: 1 / 255)
        for x in 0..<count {
            let pixel = SIMD4<UInt8>(bytes[3 * x], bytes[3 * x + 1], bytes[3 * x + 2], 255)
            row[x] = SIMD4<Float>(pixel) * scale
        }
    }

    /// Writes `count` float pixels (straight colour, 0–1) as RGB bytes, clamped and
    /// rounded as ``packRow(_:width:columns:premultiplied:into:y:format:)`` does; alpha is
    /// dropped.
    package static func packRGBRow(_ row: UnsafePointer<SIMD4<Float>>, count: Int, into destination: UnsafeMutableRawPointer) {
        let bytes = destination.assumingMemoryBound(to: UInt8.self)
        for x in 0..<count {
            let value = rounded(row[x], premultiplied: false, maximum: 255)
            bytes[3 * x] = UInt8(truncatingIfNeeded: value[0])
            bytes[3 * x + 1] = UInt8(truncatingIfNeeded: value[1])
            bytes[3 * x + 2] = UInt8(truncatingIfNeeded: value[2])
        }
    }
}
