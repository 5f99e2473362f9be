import Foundation
import NIOConcurrencyHelpers
import WebImage
import WebImageTestSupport

/// A tiny image format for downloader tests, so they need no real codec: `RAWI`, width and
/// height as big-endian UInt16, then RGBA rows. Partial data decodes to the rows so far
/// (the rest transparent). It counts its decodes.
package final class RawRGBATestCoder: ProgressiveImageCoder {
    private static let magic = Array("RAWI".utf8)
    private let counts = NIOLockedValueBox((full: 0, partial: 0))

    package init() {}

    /// How many full decodes ran.
    package var fullDecodeCount: Int { counts.withLockedValue { $0.full } }
    /// How many partial decodes ran.
    package var partialDecodeCount: Int { counts.withLockedValue { $0.partial } }

    /// An image whose pixel (x, y) is (x, y, `blue`, 255).
    package static func encode(width: Int, height: Int, blue: UInt8 = 7) -> [UInt8] {
        var bytes = magic
        bytes += [UInt8(width >> 8), UInt8(width & 0xFF), UInt8(height >> 8), UInt8(height & 0xFF)]
        for y in 0..<height {
            for x in 0..<width {
                bytes += [UInt8(x & 0xFF), UInt8(y & 0xFF), blue, 255]
            }
        }
        return bytes
    }

    package func canDecode(_ data: Data) -> Bool {
        data.count >= 8 && Array(data.prefix(4)) == Self.magic
    }

    package func canDecodeIncrementally(_ data: Data) -> Bool {
        canDecode(data)
    }

    package func decode(_ data: Data, options: ImageDecodeOptions) throws(ImageError) -> Image {
        counts.withLockedValue { $0.full += 1 }
        let (width, height) = try header(data)
        guard data.count == 8 + width * height * 4 else {
            throw ImageError(.badImageData, "the raw image is truncated")
        }
        return try makeImage(data, width: width, height: height, options: options)
    }

    package func decodeIncrementally(_ data: Data, isComplete: Bool, options: ImageDecodeOptions) throws(ImageError) -> Image? {
        counts.withLockedValue { $0.partial += 1 }
        let (width, height) = try header(data)
        guard (data.count - 8) / (width * 4) > 0 else { return nil }
        return try makeImage(data, width: width, height: height, options: options)
    }

    package func canEncode(to format: ImageFormat) -> Bool { false }

    package func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(ImageError) -> Data {
        throw ImageError(.encodingFailed, "the raw test format is decode-only")
    }

    private func header(_ data: Data) throws(ImageError) -> (Int, Int) {
        guard canDecode(data) else { throw ImageError(.badImageData, "not a raw test image") }
        let bytes = Array(data.prefix(8))
        let width = Int(bytes[4]) << 8 | Int(bytes[5])
        let height = Int(bytes[6]) << 8 | Int(bytes[7])
        guard width > 0, height > 0 else { throw ImageError(.badImageData, "the raw image has no pixels") }
        return (width, height)
    }

    private func makeImage(_ data: Data, width: Int, height: Int, options: ImageDecodeOptions) throws(ImageError) -> Image {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let available = min(data.count - 8, pixels.count)
        pixels.withUnsafeMutableBytes { target in
            _ = data.dropFirst(8).prefix(available).copyBytes(to: target)
        }
        let bitmap = Bitmap(width: width, height: height, pixels: pixels)
        guard let box = options.thumbnailPixelSize else { return Image(bitmap: bitmap) }
        return try Image(bitmap: bitmap.resized(to: box))
    }
}
