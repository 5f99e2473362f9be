import Foundation
import WebImageCore

extension PNGCoder {
    /// Frames as an APNG: each frame is compressed by libspng as a standalone PNG, and its
    /// image data is carried over as IDAT (first frame, which is also the default image)
    /// or fdAT chunks, behind acTL and fcTL chunks written here. `cancellation` is read
    /// before each frame.
    static func encodeAnimation(
        _ frames: [ImageFrame], loopCount: Int, keepingAlpha: Bool, cancellation: ImageWorkCancellation?
    ) throws(ImageError) -> Data {
        var writer = PNGChunkWriter()
        var sequence: UInt32 = 0
        for (index, frame) in frames.enumerated() {
            try cancellation?.check(before: "frame \(index) of the APNG")
            let png = try encodeStill(frame.bitmap, keepingAlpha: keepingAlpha)
            try png.withImageBytes { stream throws(ImageError) in
                var reader = try PNGChunkReader(stream)
                var wroteControl = false
                while let chunk = try reader.next() {
                    switch chunk.type {
                    case .header where index == 0:
                        writer.appendVerbatim(UnsafeRawBufferPointer(rebasing: stream[chunk.bytes]))
                        writer.append(.animationControl, bigEndianWords([UInt32(frames.count), UInt32(clamping: loopCount)]))
                    case .imageData:
                        if !wroteControl {
                            writer.append(.frameControl, frameControl(for: frame, sequence: sequence))
                            sequence += 1
                            wroteControl = true
                        }
                        if index == 0 {
                            writer.appendVerbatim(UnsafeRawBufferPointer(rebasing: stream[chunk.bytes]))
                        } else {
                            writer.append(.frameData, prefix: sequence, UnsafeRawBufferPointer(rebasing: stream[chunk.data]))
                            sequence += 1
                        }
                    default:
                        continue
                    }
                }
            }
        }
        writer.appendEnd()
        return Data(writer.bytes)
    }

    /// The fcTL data of a full-canvas frame: no disposal, "source" blending.
    private static func frameControl(for frame: ImageFrame, sequence: UInt32) -> [UInt8] {
        let delay = delayFraction(seconds: frame.duration)
        var bytes = bigEndianWords([sequence, UInt32(frame.bitmap.width), UInt32(frame.bitmap.height), 0, 0])
        for half in [delay.numerator, delay.denominator] {
            withUnsafeBytes(of: half.bigEndian) { bytes.append(contentsOf: $0) }
        }
        bytes.append(contentsOf: [APNGFrameControl.Disposal.none.rawValue, APNGFrameControl.Blending.source.rawValue])
        return bytes
    }

    /// `seconds` as the finest fraction of 1000, 100, 10 or 1 whose numerator fits 16 bits.
    static func delayFraction(seconds: Double) -> (numerator: UInt16, denominator: UInt16) {
        let duration = seconds.isFinite ? max(0, seconds) : 0
        for denominator in [1000, 100, 10, 1] as [UInt16] {
            let numerator = (duration * Double(denominator)).rounded()
            if numerator <= Double(UInt16.max) { return (UInt16(numerator), denominator) }
        }
        return (UInt16.max, 1)
    }

    private static func bigEndianWords(_ words: [UInt32]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(words.count * 4)
        for word in words {
            withUnsafeBytes(of: word.bigEndian) { bytes.append(contentsOf: $0) }
        }
        return bytes
    }
}
