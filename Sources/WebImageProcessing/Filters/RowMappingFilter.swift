import WebImageCore

/// An operation on each row of a stream of opaque RGB rows on its own, with no row's
/// neighbours: colour controls, tint and grayscale (``pixels(width:body:)``) and the
/// horizontal flip (``mirroring(width:)``). Rows of a batch are mapped in parallel bands.
final class RowMappingFilter: RGBRowFilter {
    /// Writes the mapped row of `width` pixels (3 bytes each) at `destination`.
    typealias Map = (_ source: UnsafeRawPointer, _ destination: UnsafeMutableRawPointer) -> Void

    private let width: Int
    private let map: Map
    private var output: [UInt8] = []

    /// A filter for rows of `width` pixels running `map` on each.
    init(width: Int, map: @escaping Map) {
        self.width = width
        self.map = map
    }

    /// A pixel-by-pixel operation: each row is read as floats (straight colour, 0–1),
    /// changed in place by `body` — the same function the whole-picture transformer runs
    /// on its rows, so the result is that transformer's exactly — and written back.
    static func pixels(
        width: Int, body: @escaping (_ row: UnsafeMutablePointer<SIMD4<Float>>, _ count: Int) -> Void
    ) -> RowMappingFilter {
        RowMappingFilter(width: width) { source, destination in
            withUnsafeTemporaryAllocation(of: SIMD4<Float>.self, capacity: width) { row in
                Bitmap.unpackRGBRow(source, count: width, into: row.baseAddress!)
                body(row.baseAddress!, width)
                Bitmap.packRGBRow(row.baseAddress!, count: width, into: destination)
            }
        }
    }

    /// Mirrors each row left to right: the horizontal flip of ``FlippingImageTransformer``.
    static func mirroring(width: Int) -> RowMappingFilter {
        RowMappingFilter(width: width) { source, destination in
            for x in 0..<width {
                (destination + (width - 1 - x) * 3).copyMemory(from: source + x * 3, byteCount: 3)
            }
        }
    }

    func consume(
        _ rows: UnsafeRawBufferPointer, count: Int,
        emit: (_ rows: UnsafeRawBufferPointer, _ count: Int) throws(ImageError) -> Void
    ) throws(ImageError) {
        let bytesPerRow = width * 3
        guard count > 0, bytesPerRow > 0 else { return }
        if output.count < count * bytesPerRow {
            output = try [UInt8](repeating: 0, imageSized: count, bytesPerRow)
        }
        let width = self.width, map = self.map
        output.withUnsafeMutableBytes { output in
            let output = output.baseAddress!, source = rows.baseAddress!
            ParallelRows.forEachBand(of: count, pixelsPerItem: width) { band in
                for index in band {
                    map(source + index * bytesPerRow, output + index * bytesPerRow)
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
