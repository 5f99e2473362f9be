import CWebP
import Foundation
import WebImageCore

/// The ICC profile of a WebP file: read from its `ICCP` chunk, and written into one with
/// libwebp's muxer.
enum WebPICCProfile {
    /// The payload of the `ICCP` chunk of the extended (`VP8X`) WebP in `bytes`; `nil`
    /// when there is none. Only chunk headers are walked, every read bounds-checked.
    static func read(from bytes: UnsafeRawBufferPointer) -> ColorProfile? {
        guard bytes.count >= 30, bytes.starts(with: Array("RIFF".utf8)),
            bytes[8..<16].elementsEqual("WEBPVP8X".utf8)
        else { return nil }
        let riffEnd = min(bytes.count, 8 + Int(littleEndian32(bytes, at: 4)))
        var offset = 12
        while offset + 8 <= riffEnd {
            let size = Int(littleEndian32(bytes, at: offset + 4))
            let payload = offset + 8
            guard size <= riffEnd - payload else { return nil }
            if bytes[offset..<(offset + 4)].elementsEqual("ICCP".utf8) {
                return ColorProfile(data: Data(bytes[payload..<(payload + size)]))
            }
            offset = payload + size + (size & 1)
        }
        return nil
    }

    /// `webp` with `profile` in an `ICCP` chunk (libwebp's muxer turns a simple file into
    /// an extended one for it).
    ///
    /// - Throws: ``ImageError/Code/encodingFailed`` when the muxer refuses.
    static func adding(_ profile: ColorProfile, to webp: Data) throws(ImageError) -> Data {
        guard let result = WebPCopyrightChunks.muxing([("ICCP", [UInt8](profile.data))], into: webp) else {
            throw ImageError(.encodingFailed, "libwebp's muxer cannot add the ICC profile")
        }
        return result
    }

    private static func littleEndian32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }
}
