#if TIFF
// Compiled only with the `TIFF` package trait, so that a build without it never
// imports CTIFF and needs no libtiff headers.
import CTIFF
import WebImageCore

/// Reads a page in one of the ``TIFFSampleLayout``s strip by strip or tile by tile (plane
/// by plane when each sample has its own), with libtiff decompressing and this type
/// expanding samples to RGBA.
struct TIFFDirectReader {
    /// The open handle, on the page to read.
    let tiff: OpaquePointer
    /// The page's sample layout.
    let layout: TIFFSampleLayout
    /// The page's size.
    let size: PixelSize

    /// The page as stored (before orientation), or `nil` when libtiff failed to read a
    /// strip or tile; throws ``ImageError/Code/imageTooLarge`` when its pixels cannot be
    /// had.
    func read() throws(ImageError) -> Bitmap? {
        let outputBytesPerPixel = layout.pixelFormat.bytesPerPixel
        var pixels = try [UInt8](repeating: 0, imageSized: size.width, size.height, outputBytesPerPixel)
        let isTiled = TIFFIsTiled(tiff) != 0
        let succeeded = pixels.withUnsafeMutableBytes { output in
            (0..<layout.planeCount).allSatisfy { plane in
                isTiled ? readTiles(of: plane, into: output) : readStrips(of: plane, into: output)
            }
        }
        return succeeded ? Bitmap(width: size.width, height: size.height, pixelFormat: layout.pixelFormat, pixels: pixels) : nil
    }

    private func readStrips(of plane: Int, into output: UnsafeMutableRawBufferPointer) -> Bool {
        let stripSize = Int(TIFFStripSize(tiff))
        guard stripSize > 0 else { return false }
        var rowsPerStrip: UInt32 = 0
        _ = ctiff_get_uint32(tiff, UInt32(TIFFTAG_ROWSPERSTRIP), &rowsPerStrip)
        let rowsInStrip = rowsPerStrip == 0 ? size.height : min(Int(rowsPerStrip), size.height)
        let rowBytes = size.width * layout.bytesPerPixel
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: stripSize, alignment: 16)
        defer { buffer.deallocate() }
        var row = 0
        while row < size.height {
            let strip = TIFFComputeStrip(tiff, UInt32(row), UInt16(plane))
            let read = Int(TIFFReadEncodedStrip(tiff, strip, buffer, tmsize_t(stripSize)))
            guard read >= 0 else { return false }
            let rows = min(rowsInStrip, size.height - row, read / max(1, rowBytes))
            for line in 0..<rows {
                layout.expand(
                    buffer + line * rowBytes,
                    plane: plane,
                    into: output.baseAddress! + (row + line) * size.width * layout.pixelFormat.bytesPerPixel,
                    count: size.width
                )
            }
            row += rowsInStrip
        }
        return true
    }

    private func readTiles(of plane: Int, into output: UnsafeMutableRawBufferPointer) -> Bool {
        var tileWidth: UInt32 = 0, tileHeight: UInt32 = 0
        let tileSize = Int(TIFFTileSize(tiff))
        guard ctiff_get_uint32(tiff, UInt32(TIFFTAG_TILEWIDTH), &tileWidth) == 1,
            ctiff_get_uint32(tiff, UInt32(TIFFTAG_TILELENGTH), &tileHeight) == 1,
            tileWidth > 0, tileHeight > 0, tileSize >= Int(tileWidth) * Int(tileHeight) * layout.bytesPerPixel
        else { return false }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: tileSize, alignment: 16)
        defer { buffer.deallocate() }
        let outputRowBytes = size.width * layout.pixelFormat.bytesPerPixel
        for top in stride(from: 0, to: size.height, by: Int(tileHeight)) {
            for left in stride(from: 0, to: size.width, by: Int(tileWidth)) {
                let tile = TIFFComputeTile(tiff, UInt32(left), UInt32(top), 0, UInt16(plane))
                guard TIFFReadEncodedTile(tiff, tile, buffer, tmsize_t(tileSize)) >= 0 else { return false }
                let columns = min(Int(tileWidth), size.width - left)
                for line in 0..<min(Int(tileHeight), size.height - top) {
                    layout.expand(
                        buffer + line * Int(tileWidth) * layout.bytesPerPixel,
                        plane: plane,
                        into: output.baseAddress! + (top + line) * outputRowBytes + left * layout.pixelFormat.bytesPerPixel,
                        count: columns
                    )
                }
            }
        }
        return true
    }
}
#endif
