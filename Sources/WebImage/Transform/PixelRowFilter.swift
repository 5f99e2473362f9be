/// A pixel-by-pixel operation over a stream of opaque RGB rows: each row is read as
/// floats, changed by the same function the whole-picture transformer runs on its rows,
/// and written back, so the result is that transformer's exactly.
final class PixelRowFilter: RGBRowFilter {
    /// Changes `count` pixels of a row (straight colour, 0–1) in place.
    typealias Body = (_ row: UnsafeMutablePointer<SIMD4<Float>>, _ count: Int) -> Void

    private let width: Int
    private let body: Body
    private var output: [UInt8] = []

    /// A filter for rows of `width` pixels running `body` on each.
    init(width: Int, body: @escaping Body) {
        self.width = width
        self.body = body
    }

    func consume(
        _ rows: UnsafeRawBufferPointer, count: Int,
        emit: (_ rows: UnsafeRawBufferPointer, _ count: Int) throws(ImageError) -> Void
    ) throws(ImageError) {
        let bytesPerRow = width * 3
        guard count > 0, bytesPerRow > 0 else { return }
        if output.count < count * bytesPerRow {
            output = [UInt8](repeating: 0, count: count * bytesPerRow)
        }
        let width = self.width, body = self.body
        output.withUnsafeMutableBytes { output in
            let output = output.baseAddress!, source = rows.baseAddress!
            ParallelRows.forEachBand(of: count, pixelsPerItem: width) { band in
                let row = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width)
                defer { row.deallocate() }
                for index in band {
                    Bitmap.unpackRGBRow(source + index * bytesPerRow, count: width, into: row)
                    body(row, width)
                    Bitmap.packRGBRow(row, count: width, into: output + index * bytesPerRow)
                }
            }
        }
        let emitted = output.withUnsafeBytes { output in
            Result { () throws(ImageError) in try emit(UnsafeRawBufferPointer(rebasing: output[..<(count * bytesPerRow)]), count) }
        }
        try emitted.get()
    }

    func finish(emit: (_ rows: UnsafeRawBufferPointer, _ count: Int) throws(ImageError) -> Void) throws(ImageError) {}
}
