import CPNG
import Foundation
import WebImageCore

/// Writes an 8-bit RGB or RGBA PNG to an open file a few rows at a time, with libspng's
/// progressive encoder and zlib, without the whole image (or the whole file) in memory:
/// the same pixels as ``PNGCoder/encode(_:as:options:)`` would write, in other bytes
/// (that encoder compresses the whole image at once with libdeflate).
package final class PNGRowEncoder {
    private let context: SPNGContext
    private let fileDescriptor: Int32
    private let size: PixelSize
    private let bytesPerPixel: Int
    private var rowsWritten = 0
    private var writeError: Int32 = 0

    /// Starts a PNG of `size` written to `fileDescriptor` (left open), from rows of RGBA
    /// pixels when `keepingAlpha`, else RGB.
    ///
    /// - Throws: ``ImageError/Code/encodingFailed`` when libspng refuses the header.
    package init(size: PixelSize, keepingAlpha: Bool, fileDescriptor: Int32) throws(ImageError) {
        guard let width = UInt32(exactly: size.width), let height = UInt32(exactly: size.height),
            width > 0, height > 0
        else {
            throw ImageError(.encodingFailed, "a PNG cannot hold an image of \(size)")
        }
        self.context = try SPNGContext(flags: Int32(SPNG_CTX_ENCODER.rawValue))
        self.fileDescriptor = fileDescriptor
        self.size = size
        self.bytesPerPixel = keepingAlpha ? 4 : 3
        let colorType = keepingAlpha ? SPNG_COLOR_TYPE_TRUECOLOR_ALPHA : SPNG_COLOR_TYPE_TRUECOLOR
        var header = spng_ihdr(
            width: width, height: height, bit_depth: 8,
            color_type: UInt8(colorType.rawValue), compression_method: 0, filter_method: 0, interlace_method: 0
        )
        let user = Unmanaged.passUnretained(self).toOpaque()
        try context.check(spng_set_png_stream(context.handle, Self.writeToFile, user), "write to the file", code: .encodingFailed)
        try context.check(spng_set_ihdr(context.handle, &header), "write the PNG header", code: .encodingFailed)
        let flags = Int32(SPNG_ENCODE_PROGRESSIVE.rawValue | SPNG_ENCODE_FINALIZE.rawValue)
        try check(spng_encode_image(context.handle, nil, 0, Int32(SPNG_FMT_PNG.rawValue), flags), "start the image")
    }

    /// Compresses `rows`: whole rows, in order, `bytesPerRow` bytes apart. After the last
    /// row of the image the file is complete.
    package func write(rows: UnsafeRawBufferPointer, bytesPerRow: Int) throws(ImageError) {
        guard let base = rows.baseAddress else { return }
        let rowBytes = size.width * bytesPerPixel
        var offset = 0
        while offset + rowBytes <= rows.count, rowsWritten < size.height {
            let status = spng_encode_row(context.handle, base + offset, rowBytes)
            if status != Int32(SPNG_EOI.rawValue) { try check(status, "encode row \(rowsWritten)") }
            rowsWritten += 1
            offset += bytesPerRow
        }
    }

    /// Checks that every row was written (and so the file ended).
    package func finish() throws(ImageError) {
        guard rowsWritten == size.height else {
            throw ImageError(.encodingFailed, "the PNG got \(rowsWritten) of \(size.height) rows")
        }
    }

    private func check(_ status: Int32, _ action: String) throws(ImageError) {
        if writeError != 0 {
            throw ImageError(.fileSystem, "cannot write the PNG: \(String(cString: strerror(writeError)))")
        }
        try context.check(status, action, code: .encodingFailed)
    }

    /// libspng's output callback: writes every byte to the file.
    private static let writeToFile:
        @convention(c) (
            OpaquePointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Int
        ) -> Int32 = { _, user, bytes, length in
            guard let user, let bytes else { return Int32(SPNG_IO_ERROR.rawValue) }
            let encoder = Unmanaged<PNGRowEncoder>.fromOpaque(user).takeUnretainedValue()
            var offset = 0
            while offset < length {
                let written = Foundation.write(encoder.fileDescriptor, bytes + offset, length - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    encoder.writeError = errno
                    return Int32(SPNG_IO_ERROR.rawValue)
                }
                offset += written
            }
            return 0
        }
}
