import Foundation
import WebImageCore

extension PNGCoder {
    /// The size the PNG's `IHDR` chunk declares (an APNG's canvas), read from its first
    /// 24 bytes.
    ///
    /// - Throws: `ImageError/Code/badImageData` when the file does not start with an
    ///   `IHDR` chunk.
    public func pixelSize(of data: Data) throws(ImageError) -> PixelSize? {
        let size = data.withUnsafeBytes { bytes -> PixelSize? in
            let signatureLength = PNGChunkReader.signature.count
            // Signature, chunk length, "IHDR", width, height.
            guard bytes.count >= signatureLength + 16,
                bytes.loadBigEndianUInt32(at: signatureLength + 4) == 0x4948_4452
            else { return nil }
            return PixelSize(
                width: Int(bytes.loadBigEndianUInt32(at: signatureLength + 8)),
                height: Int(bytes.loadBigEndianUInt32(at: signatureLength + 12))
            )
        }
        guard let size else { throw ImageError(.badImageData, "the PNG does not start with an IHDR chunk") }
        return size
    }
}
