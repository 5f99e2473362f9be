import Foundation
import WebImageCore

extension BMPCoder {
    /// The size the BMP's info header declares (its absolute height, for top-down files).
    ///
    /// - Throws: `ImageError/Code/badImageData` when the headers are truncated or invalid.
    public func pixelSize(of data: Data) throws(ImageError) -> PixelSize? {
        try data.withUnsafeBytes { bytes in
            Result { () throws(ImageError) in
                let reader = LittleEndianReader(bytes: bytes)
                let start = BMPCoder.fileHeaderStart(reader)
                guard let pixelOffset = reader.uint32(at: start + 10) else {
                    throw ImageError(.badImageData, "the BMP file header is truncated")
                }
                return try BMPHeader(reading: reader, at: start + 14, pixelOffset: Int(pixelOffset)).size
            }
        }.get()
    }
}
