#if TIFF
import CTIFF
import Foundation
import WebImageCore

extension TIFFCoder {
    /// The size the TIFF's first page declares (its `ImageWidth` and `ImageLength` tags),
    /// read by opening the file's first directory and decoding no pixel.
    ///
    /// - Throws: `ImageError.Code.badImageData` when libtiff cannot open the file or its
    ///   first page declares no size.
    public func pixelSize(of data: Data) throws(ImageError) -> PixelSize? {
        guard canDecode(data) else { throw ImageError(.badImageData, "the data is not a TIFF") }
        return try data.withUnsafeBytes { bytes in
            Result { () throws(ImageError) -> PixelSize in
                let stream = TIFFMemoryStream(reading: bytes)
                // A directory is a few hundred bytes; the cap keeps a hostile count of
                // entries from allocating more than a header is worth.
                guard let tiff = stream.open(mode: "r", maxAllocation: 1 << 20) else {
                    throw ImageError(.badImageData, stream.lastError(or: "libtiff could not open the TIFF"))
                }
                defer { TIFFClose(tiff) }
                var width: UInt32 = 0, height: UInt32 = 0
                guard ctiff_get_uint32(tiff, UInt32(TIFFTAG_IMAGEWIDTH), &width) == 1,
                    ctiff_get_uint32(tiff, UInt32(TIFFTAG_IMAGELENGTH), &height) == 1
                else { throw ImageError(.badImageData, "the TIFF's first page declares no size") }
                return PixelSize(width: Int(width), height: Int(height))
            }
        }.get()
    }
}
#endif
