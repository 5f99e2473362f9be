import Foundation
import WebImageCore

extension GIFCoder {
    /// The logical screen (canvas) size the GIF's header declares.
    ///
    /// - Throws: `ImageError/Code/badImageData` when the header is cut short.
    public func pixelSize(of data: Data) throws(ImageError) -> PixelSize? {
        // "GIF87a"/"GIF89a", then the little-endian width and height.
        guard data.count >= 10 else { throw ImageError(.badImageData, "the GIF header is truncated") }
        let start = data.startIndex
        func field(_ offset: Int) -> Int {
            Int(data[start + offset]) | Int(data[start + offset + 1]) << 8
        }
        return PixelSize(width: field(6), height: field(8))
    }
}
