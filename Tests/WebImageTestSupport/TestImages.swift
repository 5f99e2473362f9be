import Foundation
import WebImageCore
import WebImageGIF

/// Small images several test targets build their cases from.
package enum TestImages {
    /// Four distinct opaque colours: red, green, blue and yellow.
    package static let colors = [
        RGBA8(red: 255, green: 0, blue: 0), RGBA8(red: 0, green: 255, blue: 0),
        RGBA8(red: 0, green: 0, blue: 255), RGBA8(red: 255, green: 255, blue: 0),
    ]

    /// A GIF of four 8×8 frames of ``colors``, 0.1 s each, and its frames.
    package static func animatedGIF() throws -> (data: Data, frames: [ImageFrame]) {
        let frames = colors.map { ImageFrame(bitmap: Bitmap.solid(8, 8, $0), duration: 0.1) }
        let data = try GIFCoder().encode(Image(frames: frames, format: .gif), as: .gif, options: ImageEncodeOptions())
        return (data, frames)
    }

    package static func pngHeader(width: UInt32, height: UInt32) -> Data {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        bytes += Array("IHDR".utf8)
        for value in [width, height] {
            bytes += withUnsafeBytes(of: value.bigEndian, Array.init)
        }
        bytes += [8, 6, 0, 0, 0, 0, 0, 0, 0]
        return Data(bytes)
    }

    /// An 8×8 grey progressive JPEG, all mid-grey, written byte by byte with one scan per
    /// step of successive approximation: the DC coefficient in 14 scans (bit 13, then one
    /// refinement per lower bit), then 14 scans for each AC coefficient in `bands`. Every
    /// scan codes one block of zeros in one byte, so the file is a valid progression of
    /// `14 + 14 × bands.count` scans that libjpeg reads without a warning.
    package static func manyScanJPEG(bands: ClosedRange<UInt8>) -> Data {
        var bytes: [UInt8] = [0xFF, 0xD8]
        func segment(_ marker: UInt8, _ payload: [UInt8]) {
            bytes += [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        segment(0xDB, [0x00] + [UInt8](repeating: 1, count: 64))  // one quantisation table of 1s
        segment(0xC2, [8, 0, 8, 0, 8, 1, 1, 0x11, 0])  // progressive, 8-bit, 8×8, one component
        // DC table 0 and AC table 0, each one 1-bit code ("0") for symbol 0: a DC difference
        // of 0, an end of block.
        let oneCode: [UInt8] = [1] + [UInt8](repeating: 0, count: 15)
        segment(0xC4, [0x00] + oneCode + [0x00] + [0x10] + oneCode + [0x00])
        func scan(_ band: UInt8, high: UInt8, low: UInt8) {
            segment(0xDA, [1, 1, 0x00, band, band, high << 4 | low])
            bytes.append(0x7F)  // the code "0" (or a refinement bit 0), padded with 1s
        }
        for band in [0] + Array(bands) {
            scan(band, high: 0, low: 13)
            for bit in stride(from: UInt8(13), to: 0, by: -1) { scan(band, high: bit, low: bit - 1) }
        }
        bytes += [0xFF, 0xD9]
        return Data(bytes)
    }
}
