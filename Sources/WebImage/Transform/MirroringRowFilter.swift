/// Mirrors a stream of RGB rows left to right: the horizontal flip of
/// ``FlippingImageTransformer``, row by row.
final class MirroringRowFilter: RGBRowFilter {
    private let width: Int
    private var output: [UInt8] = []

    /// A filter for rows of `width` pixels.
    init(width: Int) {
        self.width = width
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
        let width = self.width
        output.withUnsafeMutableBytes { output in
            for row in 0..<count {
                let source = rows.baseAddress! + row * bytesPerRow, destination = output.baseAddress! + row * bytesPerRow
                for x in 0..<width {
                    (destination + (width - 1 - x) * 3).copyMemory(from: source + x * 3, byteCount: 3)
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
