import Foundation
import WebImage
import WebImageTestSupport

/// Real images for manager tests, made in code and encoded with the library's own coders.
package enum ManagerTestImage {
    /// An opaque bitmap whose pixel (x, y) is (x × 16, y × 16, `tint`, 255), wrapping at 256.
    package static func bitmap(width: Int, height: Int, tint: UInt8) -> Bitmap {
        // Written in place: appending a four-byte array a pixel made a 2,000 × 2,000 fixture
        // take most of a minute in the suite's unoptimised, sanitised build.
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            for y in 0..<height {
                for x in 0..<width {
                    let offset = (y * width + x) * 4
                    buffer[offset] = UInt8(truncatingIfNeeded: x * 16)
                    buffer[offset + 1] = UInt8(truncatingIfNeeded: y * 16)
                    buffer[offset + 2] = tint
                    buffer[offset + 3] = 255
                }
            }
            count = width * height * 4
        }
        return Bitmap(width: width, height: height, pixels: pixels)
    }

    /// A PNG of ``bitmap(width:height:tint:)``.
    package static func png(width: Int = 8, height: Int = 6, tint: UInt8 = 0) throws -> Data {
        try ImageCodersManager.shared.encode(Image(bitmap: bitmap(width: width, height: height, tint: tint)), as: .png)
    }

    /// A JPEG of ``bitmap(width:height:tint:)``.
    package static func jpeg(width: Int = 8, height: Int = 6, tint: UInt8 = 0) throws -> Data {
        try ImageCodersManager.shared.encode(Image(bitmap: bitmap(width: width, height: height, tint: tint)), as: .jpeg)
    }

    /// An animated PNG of `frameCount` frames, frame `i` tinted `i × 40`.
    package static func animatedPNG(width: Int = 8, height: Int = 6, frameCount: Int = 2) throws -> Data {
        let frames = (0..<frameCount).map { index in
            ImageFrame(bitmap: bitmap(width: width, height: height, tint: UInt8(index * 40)), duration: 0.1)
        }
        return try ImageCodersManager.shared.encode(Image(frames: frames, format: .png), as: .png)
    }

    /// A PNG of noise that deflate cannot shrink much, so half of its bytes hold only part of its rows.
    package static func noisePNG(width: Int = 64, height: Int = 64) throws -> Data {
        var generator = SystemRandomNumberGenerator()
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for index in pixels.indices where index % 4 != 3 {
            pixels[index] = UInt8.random(in: 0...255, using: &generator)
        }
        return try ImageCodersManager.shared.encode(Image(bitmap: Bitmap(width: width, height: height, pixels: pixels)), as: .png)
    }
}
