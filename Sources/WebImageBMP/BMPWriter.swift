import Foundation
import WebImageCore

/// Writes an RGBA8 bitmap as a bottom-up BMP: 24-bit BGR with a version 3 header, or,
/// when alpha is kept, 32-bit BGRA with a version 4 header that names the channel masks.
struct BMPWriter {
    /// The pixels to write.
    let bitmap: Bitmap
    /// Whether to keep the alpha channel (32-bit output).
    let includesAlpha: Bool

    /// The encoded file.
    func data() -> Data {
        let infoSize = includesAlpha ? 108 : 40
        let bytesPerPixel = includesAlpha ? 4 : 3
        let stride = (bitmap.width * bytesPerPixel + 3) & ~3
        let pixelOffset = 14 + infoSize
        let imageSize = stride * bitmap.height
        var output = [UInt8]()
        output.reserveCapacity(pixelOffset + imageSize)
        func append16(_ value: Int) { withUnsafeBytes(of: UInt16(truncatingIfNeeded: value).littleEndian) { output.append(contentsOf: $0) } }
        func append32(_ value: Int) { withUnsafeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian) { output.append(contentsOf: $0) } }

        output.append(contentsOf: Array("BM".utf8))
        append32(pixelOffset + imageSize)
        append32(0)
        append32(pixelOffset)
        append32(infoSize)
        append32(bitmap.width)
        append32(bitmap.height)
        append16(1)
        append16(bytesPerPixel * 8)
        append32(includesAlpha ? 3 : 0)
        append32(imageSize)
        append32(2835)
        append32(2835)
        append32(0)
        append32(0)
        if includesAlpha {
            append32(0x00FF_0000)
            append32(0x0000_FF00)
            append32(0x0000_00FF)
            append32(Int(0xFF00_0000))
            append32(0x7352_4742)
            output.append(contentsOf: [UInt8](repeating: 0, count: 48))
        }
        let padding = [UInt8](repeating: 0, count: stride - bitmap.width * bytesPerPixel)
        bitmap.pixels.withUnsafeBufferPointer { pixels in
            for y in (0..<bitmap.height).reversed() {
                var offset = y * bitmap.width * 4
                for _ in 0..<bitmap.width {
                    output.append(pixels[offset + 2])
                    output.append(pixels[offset + 1])
                    output.append(pixels[offset])
                    if includesAlpha { output.append(pixels[offset + 3]) }
                    offset += 4
                }
                output.append(contentsOf: padding)
            }
        }
        return Data(output)
    }
}
