import WebImageCore

extension Bitmap {
    /// Calls `body` with every row, top to bottom on the calling thread, as straight
    /// colour floats from 0 to 1; for the filters whose result depends on the order the
    /// pixels are visited in (a seeded noise) or that gather statistics over the picture.
    func forEachRow(_ body: (_ y: Int, _ row: UnsafeMutablePointer<SIMD4<Float>>) -> Void) {
        guard width > 0, height > 0 else { return }
        let row = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width)
        defer { row.deallocate() }
        pixels.withUnsafeBytes { pixels in
            for y in 0..<height {
                Bitmap.unpackRow(y, of: pixels.baseAddress!, width: width, format: pixelFormat, into: row, premultiplying: false)
                body(y, row)
            }
        }
    }

    /// This bitmap with every row rewritten in place by `body`, top to bottom on the
    /// calling thread (`mappingRows(premultiplied:_:)` splits the rows over the cores,
    /// in no order), as straight colour floats from 0 to 1.
    func mappingRowsInOrder(_ body: (_ y: Int, _ row: UnsafeMutablePointer<SIMD4<Float>>) -> Void) -> Bitmap {
        guard width > 0, height > 0 else { return self }
        var result = self
        let (width, height, format) = (self.width, self.height, pixelFormat)
        let row = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width)
        defer { row.deallocate() }
        result.pixels.withUnsafeMutableBytes { pixels in
            let pixels = pixels.baseAddress!
            for y in 0..<height {
                Bitmap.unpackRow(y, of: pixels, width: width, format: format, into: row, premultiplying: false)
                body(y, row)
                Bitmap.packRow(row, width: width, premultiplied: false, into: pixels, y: y, format: format)
            }
        }
        return result
    }

    /// A channel value from 0 to 1 as the 8-bit value it stands for, 0 to 255.
    @inline(__always)
    static func eightBit(_ value: Float) -> Int {
        Int(min(max((value * 255).rounded(), 0), 255))
    }

    /// The mean colour of the picture, opaque: each channel's 8-bit straight values summed
    /// over every pixel (whatever its alpha) and divided by their count, rounded down.
    var meanColour: RGBA8 {
        var sums = (red: 0, green: 0, blue: 0)
        forEachRow { _, row in
            for x in 0..<width {
                sums.red += Self.eightBit(row[x].x)
                sums.green += Self.eightBit(row[x].y)
                sums.blue += Self.eightBit(row[x].z)
            }
        }
        let count = max(1, width * height)
        return RGBA8(red: UInt8(sums.red / count), green: UInt8(sums.green / count), blue: UInt8(sums.blue / count))
    }
}
