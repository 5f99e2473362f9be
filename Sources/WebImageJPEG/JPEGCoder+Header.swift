import Foundation
import WebImageCore

extension JPEGCoder {
    /// The size the JPEG's frame header (`SOFn`) declares, as stored (before the EXIF
    /// orientation): found by walking the segment headers, or, when that walk stops short
    /// (stray bytes between segments, a damaged segment length, which libjpeg skips over
    /// with a warning), by libjpeg's own header reader, the one ``decode(_:options:)``
    /// uses, so a file the decoder reads always passes this check.
    ///
    /// - Throws: `ImageError/Code/badImageData` when libjpeg finds no frame header
    ///   before the first scan.
    public func pixelSize(of data: Data) throws(ImageError) -> PixelSize? {
        let result = data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            Result { () throws(ImageError) -> PixelSize in
                if let size = JPEGMetadata(reading: bytes).frameSize { return size }
                return try JPEGDecompressor(bytes, maxMemory: 0).readHeader().size
            }
        }
        return try result.get()
    }
}
