import Foundation
@testable import WebImageCore
import WebImageGIF

/// Small images several test targets build their cases from.
enum TestImages {
    /// Four distinct opaque colours: red, green, blue and yellow.
    static let colors = [
        RGBA8(red: 255, green: 0, blue: 0), RGBA8(red: 0, green: 255, blue: 0),
        RGBA8(red: 0, green: 0, blue: 255), RGBA8(red: 255, green: 255, blue: 0),
    ]

    /// A GIF of four 8×8 frames of ``colors``, 0.1 s each, and its frames.
    static func animatedGIF() throws -> (data: Data, frames: [ImageFrame]) {
        let frames = colors.map { ImageFrame(bitmap: Bitmap.solid(8, 8, $0), duration: 0.1) }
        let data = try GIFCoder().encode(Image(frames: frames, format: .gif), as: .gif, options: ImageEncodeOptions())
        return (data, frames)
    }

    static func pngHeader(width: UInt32, height: UInt32) -> Data {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        bytes += Array("IHDR".utf8)
        for value in [width, height] {
            bytes += withUnsafeBytes(of: value.bigEndian, Array.init)
        }
        bytes += [8, 6, 0, 0, 0, 0, 0, 0, 0]
        return Data(bytes)
    }
}
