import Foundation
// The chunk writer and reader are WebImagePNG's `package` API (and `withImageBytes`
// WebImageCore's), which the root package's tests see; the Sanitizers package builds this
// file too, and `package` does not reach across packages, so the imports are `@testable`
// (their one use in the support targets).
@testable import WebImageCore
@testable import WebImagePNG

/// Animated PNGs written chunk by chunk for tests: frames at offsets, delays, disposal and
/// blending, hidden default images and corrupt frame data.
package enum APNGTestFile {
    /// One frame of a generated APNG.
    package struct FrameSpec {
        package var bitmap: Bitmap
        package var x = 0
        package var y = 0
        package var delay: (UInt16, UInt16) = (1, 10)
        package var disposal: UInt8 = 0
        package var blending: UInt8 = 0

        package init(bitmap: Bitmap, x: Int = 0, y: Int = 0, delay: (UInt16, UInt16) = (1, 10), disposal: UInt8 = 0, blending: UInt8 = 0) {
            self.bitmap = bitmap
            self.x = x
            self.y = y
            self.delay = delay
            self.disposal = disposal
            self.blending = blending
        }
    }

    /// The 26 data bytes of an fcTL chunk.
    package static func frameControlBytes(
        sequence: UInt32, width: Int, height: Int, x: Int = 0, y: Int = 0,
        delay: (UInt16, UInt16) = (1, 10), disposal: UInt8 = 0, blending: UInt8 = 0
    ) -> [UInt8] {
        var bytes: [UInt8] = []
        for word in [sequence, UInt32(width), UInt32(height), UInt32(x), UInt32(y)] {
            withUnsafeBytes(of: word.bigEndian) { bytes += $0 }
        }
        for half in [delay.0, delay.1] {
            withUnsafeBytes(of: half.bigEndian) { bytes += $0 }
        }
        return bytes + [disposal, blending]
    }

    /// The IDAT payloads and IHDR data libspng writes for `bitmap` (RGBA).
    package static func compressed(_ bitmap: Bitmap) throws -> (header: [UInt8], payloads: [[UInt8]]) {
        let png = try PNGCoder.encodeStill(bitmap, keepingAlpha: true)
        return try png.withImageBytes { stream throws(ImageError) in
            var reader = try PNGChunkReader(stream)
            var header: [UInt8] = []
            var payloads: [[UInt8]] = []
            while let chunk = try reader.next() {
                if chunk.type == .header { header = Array(stream[chunk.data]) }
                if chunk.type == .imageData { payloads.append(Array(stream[chunk.data])) }
            }
            return (header, payloads)
        }
    }

    /// An APNG of `frames` on a `canvas`; with `hiddenDefault` the IDAT holds that image
    /// and is not part of the animation.
    package static func make(
        canvas: PixelSize, frames: [FrameSpec], loops: UInt32 = 0, announced: Int? = nil,
        hiddenDefault: Bitmap? = nil, corruptLastFrameData: Bool = false
    ) throws -> Data {
        var writer = PNGChunkWriter()
        let first = try compressed(hiddenDefault ?? frames[0].bitmap)
        var header = first.header
        withUnsafeBytes(of: UInt32(canvas.width).bigEndian) { header.replaceSubrange(0..<4, with: $0) }
        withUnsafeBytes(of: UInt32(canvas.height).bigEndian) { header.replaceSubrange(4..<8, with: $0) }
        writer.append(.header, header)
        var actl: [UInt8] = []
        for word in [UInt32(announced ?? frames.count), loops] {
            withUnsafeBytes(of: word.bigEndian) { actl += $0 }
        }
        writer.append(.animationControl, actl)
        var sequence: UInt32 = 0
        if hiddenDefault != nil {
            for payload in first.payloads { writer.append(.imageData, payload) }
        }
        for (index, frame) in frames.enumerated() {
            writer.append(
                .frameControl,
                frameControlBytes(
                    sequence: sequence, width: frame.bitmap.width, height: frame.bitmap.height, x: frame.x, y: frame.y,
                    delay: frame.delay, disposal: frame.disposal, blending: frame.blending
                ))
            sequence += 1
            if index == 0 && hiddenDefault == nil {
                for payload in first.payloads { writer.append(.imageData, payload) }
                continue
            }
            for payload in try compressed(frame.bitmap).payloads {
                let start = writer.bytes.count
                payload.withUnsafeBytes { writer.append(.frameData, prefix: sequence, $0) }
                sequence += 1
                if corruptLastFrameData && index == frames.count - 1 {
                    var bytes = writer.bytes
                    bytes[start + 14] ^= 0xFF
                    writer = PNGChunkWriter()
                    writer.appendVerbatim(bytes.withUnsafeBytes { UnsafeRawBufferPointer(rebasing: $0[8...]) })
                }
            }
        }
        writer.appendEnd()
        return Data(writer.bytes)
    }
}
