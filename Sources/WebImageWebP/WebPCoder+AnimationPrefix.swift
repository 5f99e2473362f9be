import Foundation
import WebImageCore

extension WebPCoder {
    /// The frames of an animated WebP still downloading whose `ANMF` chunks have wholly
    /// arrived. The frame decoder gets those bytes only, made a file of their own: the
    /// chunks up to the last complete frame, with the RIFF size mended to match, which
    /// libwebp's demuxer reads like any complete file. The animation is complete once the
    /// whole RIFF payload has arrived.
    ///
    /// - Returns: `nil` for a still WebP and before the first frame is complete.
    /// - Throws: `ImageError/Code/badImageData` when the frames received are corrupt.
    public func animationPrefix(of data: Data) throws(ImageError) -> AnimationPrefix? {
        guard canDecode(data) else { return nil }
        let found = data.withUnsafeBytes { bytes in WebPCoder.completeFramesLength(in: bytes) }
        guard let (length, isComplete) = found else { return nil }
        let bytes = PinnedBytes(data.prefix(length)) { file in
            file.storeBytes(of: UInt32(length - 8).littleEndian, toByteOffset: 4, as: UInt32.self)
        }
        let info = try readAnimationInfo(bytes.bytes)
        return AnimationPrefix(info: info, bytes: bytes, isComplete: isComplete)
    }

    /// How much of `bytes`, the start of a WebP file, holds whole frames of an animation:
    /// the top-level chunks up to the end of the last `ANMF` chunk wholly present, or the
    /// whole RIFF payload once it has all arrived. Every chunk is bounds-checked against
    /// `bytes` before it is read.
    ///
    /// - Returns: `nil` for a still WebP (no animation flag in `VP8X`) and before a frame is
    ///   complete.
    static func completeFramesLength(in bytes: UnsafeRawBufferPointer) -> (length: Int, isComplete: Bool)? {
        // "RIFF", the payload size, "WEBP", then chunks of a fourcc, a size and a payload
        // padded to an even length.
        let headerLength = 12
        guard bytes.count >= headerLength else { return nil }
        let riffEnd = 8 + Int(bytes.loadLittleEndianUInt32(at: 4))
        let available = min(bytes.count, riffEnd)
        var offset = headerLength
        var isAnimated = false
        var frameEnd: Int?
        while available - offset >= 8 {
            let fourCC = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + 4)]), as: UTF8.self)
            let size = Int(bytes.loadLittleEndianUInt32(at: offset + 4))
            let end = offset + 8 + size + (size & 1)
            guard end <= available else { break }
            switch fourCC {
            case "VP8X":
                // The animation flag is bit 1 of the first payload byte.
                isAnimated = size >= 1 && bytes[offset + 8] & 0x02 != 0
            case "ANMF" where isAnimated:
                frameEnd = end
            default:
                break
            }
            offset = end
        }
        guard isAnimated else { return nil }
        if offset == riffEnd, frameEnd != nil { return (riffEnd, true) }
        return frameEnd.map { ($0, false) }
    }
}
