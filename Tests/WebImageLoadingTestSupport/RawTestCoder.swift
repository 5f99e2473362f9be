import Foundation
import WebImage
import WebImageTestSupport

/// A trivial image format for cache tests, registered in a private `ImageCodersManager`
/// so the cache can decode and encode without depending on the real codecs:
/// `"RAWT"`, width, height and frame count as 32-bit little-endian integers, then the
/// RGBA8 pixels of every frame.
package struct RawTestCoder: ImageCoder {
    package static let magic = Array("RAWT".utf8)

    package init() {}

    package func canDecode(_ data: Data) -> Bool {
        data.starts(with: Self.magic)
    }

    package func decode(_ data: Data, options: ImageDecodeOptions) throws(ImageError) -> Image {
        let bytes = [UInt8](data)
        guard bytes.count >= 16 else { throw ImageError(.badImageData, "raw test image too short") }
        func field(_ offset: Int) -> Int {
            Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
        }
        let width = field(4), height = field(8), frameCount = field(12)
        let frameBytes = width * height * 4
        guard frameCount > 0, bytes.count == 16 + frameBytes * frameCount else {
            throw ImageError(.badImageData, "raw test image has the wrong length")
        }
        let decodedCount = options.firstFrameOnly ? 1 : frameCount
        let frames = (0..<decodedCount).map { index in
            let start = 16 + index * frameBytes
            let bitmap = Bitmap(width: width, height: height, pixels: Array(bytes[start..<(start + frameBytes)]))
            return ImageFrame(bitmap: bitmap, duration: frameCount > 1 ? 0.1 : 0)
        }
        return Image(frames: frames, scale: options.scaleFactor ?? 1, format: frameCount > 1 ? .gif : .png)
    }

    package func canEncode(to format: ImageFormat) -> Bool { true }

    package func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(ImageError) -> Data {
        var bytes = Self.magic
        for value in [image.pixelWidth, image.pixelHeight, image.frames.count] {
            bytes += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24 & 0xFF)]
        }
        for frame in image.frames {
            bytes += try frame.bitmap.convertedToRGBA8().pixels
        }
        return Data(bytes)
    }

    /// A manager holding only this coder.
    package static func manager() -> ImageCodersManager {
        ImageCodersManager(coders: [RawTestCoder()])
    }

    /// A `width` × `height` image (of `frameCount` frames) whose pixel (x, y) of frame f is
    /// (x, y, f, `alpha`), so any mix-up shows in the pixel values.
    package static func image(width: Int, height: Int, frameCount: Int = 1, alpha: UInt8 = 255) -> Image {
        let frames = (0..<frameCount).map { frame in
            var pixels: [UInt8] = []
            for y in 0..<height {
                for x in 0..<width {
                    pixels += [UInt8(x & 0xFF), UInt8(y & 0xFF), UInt8(frame), alpha]
                }
            }
            return ImageFrame(bitmap: Bitmap(width: width, height: height, pixels: pixels), duration: frameCount > 1 ? 0.1 : 0)
        }
        return Image(frames: frames, format: frameCount > 1 ? .gif : .png)
    }
}
