import Foundation
import Testing
import WebImage
import WebImageTestSupport

/// Animated GIF, APNG and WebP files made by the project's own encoders for progressive
/// animation tests, with the byte offset at which each frame has wholly arrived, found by
/// walking the file's blocks or chunks here rather than by the coders under test.
package struct ProgressiveAnimationFixture: Sendable {
    /// A format an animation can be streamed in.
    package enum Format: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case gif, apng, webp

        package var testDescription: String { rawValue }
    }

    /// The whole file.
    package let data: Data
    /// The coder that reads it.
    package let coder: any AnimatedImageCoder
    /// For each frame, the length of the shortest prefix holding all of it: the end of a
    /// GIF frame's image data (its block terminator), of the `fcTL` after an APNG frame (or
    /// IEND after the last), of a WebP `ANMF` chunk.
    package let frameEnds: [Int]

    /// `frameCount` frames of 24×24 pixels in up to 64 colours, each its own pattern, so
    /// that a GIF frame's image data spans several sub-blocks.
    package static func frames(count: Int) -> [ImageFrame] {
        (0..<count).map { frame in
            var pixels: [UInt8] = []
            pixels.reserveCapacity(24 * 24 * 4)
            for y in 0..<24 {
                for x in 0..<24 {
                    let shade = (x * 7 + y * 13 + frame * 31) % 64
                    pixels += [UInt8(shade * 4), UInt8((shade * 9) % 256), UInt8(255 - shade * 3), 255]
                }
            }
            return ImageFrame(bitmap: Bitmap(width: 24, height: 24, pixels: pixels), duration: 0.1)
        }
    }

    /// A file of `frameCount` frames (see ``frames(count:)``) in `format`.
    package static func make(_ format: Format, frameCount: Int = 4) throws -> ProgressiveAnimationFixture {
        let frames = frames(count: frameCount)
        switch format {
        case .gif:
            let data = try GIFCoder().encode(Image(frames: frames, format: .gif), as: .gif, options: ImageEncodeOptions())
            return ProgressiveAnimationFixture(data: data, coder: GIFCoder(), frameEnds: gifFrameEnds([UInt8](data)))
        case .apng:
            let data = try APNGTestFile.make(
                canvas: PixelSize(width: 24, height: 24), frames: frames.map { .init(bitmap: $0.bitmap) })
            return ProgressiveAnimationFixture(data: data, coder: PNGCoder(), frameEnds: apngFrameEnds([UInt8](data)))
        case .webp:
            var options = ImageEncodeOptions()
            options.lossless = true
            let data = try WebPCoder().encode(Image(frames: frames, format: .webp), as: .webp, options: options)
            return ProgressiveAnimationFixture(data: data, coder: WebPCoder(), frameEnds: webPFrameEnds([UInt8](data)))
        }
    }

    /// How many frames have wholly arrived in the first `length` bytes.
    package func completeFrames(in length: Int) -> Int {
        frameEnds.filter { $0 <= length }.count
    }

    private static func gifFrameEnds(_ bytes: [UInt8]) -> [Int] {
        func skipSubBlocks(_ offset: inout Int) {
            while bytes[offset] != 0 { offset += Int(bytes[offset]) + 1 }
            offset += 1
        }
        var offset = 13
        if bytes[10] & 0x80 != 0 { offset += 3 << ((bytes[10] & 7) + 1) }
        var ends: [Int] = []
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x21:
                offset += 2
                skipSubBlocks(&offset)
            case 0x2C:
                let flags = bytes[offset + 9]
                offset += 10
                if flags & 0x80 != 0 { offset += 3 << ((flags & 7) + 1) }
                offset += 1
                skipSubBlocks(&offset)
                ends.append(offset)
            default:
                return ends
            }
        }
        return ends
    }

    private static func apngFrameEnds(_ bytes: [UInt8]) -> [Int] {
        var offset = 8
        var boundaries: [Int] = []
        while offset + 8 <= bytes.count {
            let length = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            offset += 12 + length
            if type == "fcTL" || type == "IEND" { boundaries.append(offset) }
        }
        // The first fcTL opens frame 0; each later boundary closes the frame before it.
        return Array(boundaries.dropFirst())
    }

    private static func webPFrameEnds(_ bytes: [UInt8]) -> [Int] {
        var offset = 12
        var ends: [Int] = []
        while offset + 8 <= bytes.count {
            let size = bytes[(offset + 4)..<(offset + 8)].reversed().reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
            offset += 8 + size + (size & 1)
            if type == "ANMF" { ends.append(offset) }
        }
        return ends
    }
}
