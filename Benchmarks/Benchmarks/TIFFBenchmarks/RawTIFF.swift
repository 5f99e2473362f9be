import CTIFF
import Foundation

/// The baseline: libtiff called directly the way a program without SwiftWebImage reads a
/// TIFF held in memory — `TIFFClientOpen` over the bytes, then the first page through
/// `TIFFReadRGBAImageOriented` into its own RGBA buffer.
enum RawTIFF {
    /// The read position over the bytes, passed to libtiff as its client data.
    final class Source {
        let bytes: UnsafeRawBufferPointer
        var position = 0

        init(_ bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
        }
    }

    /// The first page as RGBA8, top row first.
    static func decode(_ data: Data) -> [UInt8] {
        data.withUnsafeBytes { bytes in
            let source = Source(bytes)
            let client = Unmanaged.passUnretained(source).toOpaque()
            let tiff = TIFFClientOpen(
                "memory", "r", client,
                { client, buffer, count in
                    let source = Unmanaged<Source>.fromOpaque(client!).takeUnretainedValue()
                    let length = max(0, min(Int(count), source.bytes.count - source.position))
                    buffer!.copyMemory(from: source.bytes.baseAddress! + source.position, byteCount: length)
                    source.position += length
                    return tmsize_t(length)
                },
                { _, _, _ in -1 },
                { client, offset, whence in
                    let source = Unmanaged<Source>.fromOpaque(client!).takeUnretainedValue()
                    let base = whence == SEEK_CUR ? source.position : whence == SEEK_END ? source.bytes.count : 0
                    source.position = base + Int(offset)
                    return toff_t(source.position)
                },
                { _ in 0 },
                { client in toff_t(Unmanaged<Source>.fromOpaque(client!).takeUnretainedValue().bytes.count) },
                { client, base, size in
                    let source = Unmanaged<Source>.fromOpaque(client!).takeUnretainedValue()
                    base!.pointee = UnsafeMutableRawPointer(mutating: source.bytes.baseAddress)
                    size!.pointee = toff_t(source.bytes.count)
                    return 1
                },
                { _, _, _ in }
            )
            precondition(tiff != nil, "raw libtiff open failed")
            defer { TIFFClose(tiff) }
            var width: UInt32 = 0, height: UInt32 = 0
            _ = ctiff_get_uint32(tiff, UInt32(TIFFTAG_IMAGEWIDTH), &width)
            _ = ctiff_get_uint32(tiff, UInt32(TIFFTAG_IMAGELENGTH), &height)
            let count = Int(width) * Int(height) * 4
            return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                let raster = UnsafeMutableRawPointer(buffer.baseAddress!).assumingMemoryBound(to: UInt32.self)
                let status = TIFFReadRGBAImageOriented(tiff, width, height, raster, ORIENTATION_TOPLEFT, 1)
                precondition(status == 1, "raw libtiff decode failed")
                initialized = count
            }
        }
    }
}
