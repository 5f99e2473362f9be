import Foundation
import WebImageCore

extension JPEGCoder {
    /// The size the JPEG's frame header (`SOFn`) declares, as stored (before the EXIF
    /// orientation), found by walking the segment headers only.
    ///
    /// - Throws: ``ImageError/Code/badImageData`` when no frame header comes before the
    ///   first scan.
    public func pixelSize(of data: Data) throws(ImageError) -> PixelSize? {
        let metadata = data.withUnsafeBytes { JPEGMetadata(reading: $0) }
        guard let size = metadata.frameSize else {
            throw ImageError(.badImageData, "the JPEG has no frame header before its data")
        }
        return size
    }
}
