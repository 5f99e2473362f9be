import CPNG
import Foundation
import WebImageCore

extension PNGCoder {
    /// Whether `data` starts like a PNG: then every prefix can be shown as it arrives.
    public func canDecodeIncrementally(_ data: Data) -> Bool {
        canDecode(data)
    }

    /// Decodes the rows that the bytes received so far hold.
    ///
    /// The result has the full image size; rows not decoded yet are transparent. An
    /// IDAT chunk cut off by the end of the data is used up to its last byte. Interlaced
    /// images show the Adam7 passes decoded so far, each pixel at its own place (the rest
    /// stays transparent). For an APNG, incomplete data shows the rows of its default
    /// image; complete data decodes the first animation frame.
    /// Returns `nil` until the first row can be decoded.
    public func decodeIncrementally(_ data: Data, isComplete: Bool, options: ImageDecodeOptions) throws(ImageError) -> Image? {
        if isComplete {
            var firstFrame = options
            firstFrame.firstFrameOnly = true
            return try decode(data, options: firstFrame)
        }
        guard canDecode(data) else { return nil }
        return try data.withImageBytes { stream throws(ImageError) in
            if let completed = try PNGCoder.completingCutChunk(stream) {
                return try completed.withImageBytes { patched throws(ImageError) in
                    try PNGCoder.decodeRows(patched, options: options)
                }
            }
            return try PNGCoder.decodeRows(stream, options: options)
        }
    }

    /// A copy of `stream` whose last, cut-off IDAT chunk is closed with the data it holds
    /// and a fresh CRC; `nil` when the stream does not end inside an IDAT chunk.
    private static func completingCutChunk(_ stream: UnsafeRawBufferPointer) throws(ImageError) -> [UInt8]? {
        var reader = try PNGChunkReader(stream)
        do {
            while try reader.next() != nil {}
            return nil
        } catch {
            guard let cut = reader.truncatedChunk(), cut.type == .imageData, !cut.availableData.isEmpty else {
                return nil
            }
            var writer = PNGChunkWriter(capacity: cut.availableData.upperBound + 12)
            let signatureLength = PNGChunkReader.signature.count
            writer.appendVerbatim(UnsafeRawBufferPointer(rebasing: stream[signatureLength..<cut.start]))
            writer.append(.imageData, UnsafeRawBufferPointer(rebasing: stream[cut.availableData]))
            return writer.bytes
        }
    }

    /// Decodes row by row until the data runs out; `nil` when no row was decoded.
    private static func decodeRows(_ stream: UnsafeRawBufferPointer, options: ImageDecodeOptions) throws(ImageError) -> Image? {
        let context = try SPNGContext.decoder(for: stream, options: options)
        var header = spng_ihdr()
        let headerStatus = spng_get_ihdr(context.handle, &header)
        if isOutOfData(headerStatus) { return nil }
        try context.check(headerStatus, "read the PNG header")
        let layout = PNGOutputLayout(header)
        let size = PixelSize(width: Int(header.width), height: Int(header.height))
        try options.checkAllocation(size, bytesPerPixel: layout.pixelFormat.bytesPerPixel)
        let byteCount = try layout.byteCount(in: context, size: size)
        let progressive = layout.flags | Int32(SPNG_DECODE_PROGRESSIVE.rawValue)
        let startStatus = spng_decode_image(context.handle, nil, 0, layout.format, progressive)
        if isOutOfData(startStatus) { return nil }
        try context.check(startStatus, "start decoding")
        let rowBytes = size.width * layout.pixelFormat.bytesPerPixel
        var pixels = try [UInt8](repeating: 0, imageSized: byteCount)
        var decodedRows = 0
        pixels.withUnsafeMutableBytes { buffer in
            var row = spng_row_info()
            while spng_get_row_info(context.handle, &row) == 0, Int(row.row_num) < size.height {
                let start = buffer.baseAddress! + Int(row.row_num) * rowBytes
                let status = spng_decode_row(context.handle, start, rowBytes)
                guard status == 0 || status == Int32(SPNG_EOI.rawValue) else { break }
                decodedRows += 1
                if status != 0 { break }
            }
        }
        guard decodedRows > 0 else { return nil }
        let bitmap = Bitmap(width: size.width, height: size.height, pixelFormat: layout.pixelFormat, pixels: pixels)
        let target = options.targetSize(forSource: size, bytesPerPixel: layout.pixelFormat.bytesPerPixel)
        return try Image(bitmap: bitmap.resized(to: target), scale: options.scaleFactor ?? 1, format: .png)
    }

    private static func isOutOfData(_ status: Int32) -> Bool {
        status == Int32(SPNG_IO_EOF.rawValue) || status == Int32(SPNG_EOF.rawValue) || status == Int32(SPNG_IO_ERROR.rawValue)
    }
}
