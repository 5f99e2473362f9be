import WebImageCore

extension Bitmap {
    /// This bitmap with every row rewritten in place by `body`, which receives the row's
    /// index and its pixels as floats from 0 to 1 (colour premultiplied by alpha when
    /// `premultiplied`). Large bitmaps are split over the cores, so `body` must only
    /// touch the row it is given.
    package func mappingRows(
        premultiplied: Bool,
        _ body: (_ y: Int, _ row: UnsafeMutablePointer<SIMD4<Float>>) -> Void
    ) -> Bitmap {
        guard width > 0, height > 0 else { return self }
        var result = self
        let width = self.width, format = pixelFormat
        result.pixels.withUnsafeMutableBytes { pixels in
            let pixels = pixels.baseAddress!
            ParallelRows.forEachBand(of: height, pixelsPerItem: width) { band in
                let row = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width)
                defer { row.deallocate() }
                for y in band {
                    Bitmap.unpackRow(y, of: pixels, width: width, format: format, into: row, premultiplying: premultiplied)
                    body(y, row)
                    Bitmap.packRow(row, width: width, premultiplied: premultiplied, into: pixels, y: y, format: format)
                }
            }
        }
        return result
    }
}
