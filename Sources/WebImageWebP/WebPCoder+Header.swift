import Foundation
import WebImageCore

extension WebPCoder {
    /// The canvas size the WebP header declares, read by libwebp without decoding.
    ///
    /// - Throws: `ImageError/Code/badImageData` when libwebp cannot read the header.
    public func pixelSize(of data: Data) throws(ImageError) -> PixelSize? {
        let features = try data.withUnsafeBytes { bytes in
            Result { () throws(ImageError) in try WebPCoder.features(of: bytes) }
        }.get()
        return PixelSize(width: Int(features.width), height: Int(features.height))
    }
}
