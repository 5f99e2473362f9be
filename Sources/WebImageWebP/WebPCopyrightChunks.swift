import CWebP
import Foundation
import WebImageCore

/// Writes an ``ImageCopyright`` into a WebP's `EXIF` and `XMP ` chunks with libwebp's muxer
/// (which turns a simple file into an extended one for them).
enum WebPCopyrightChunks {
    /// `webp` with `copyright`'s chunks.
    ///
    /// - Throws: ``ImageError/Code/encodingFailed`` when the muxer refuses.
    static func adding(_ copyright: ImageCopyright, to webp: Data) throws(ImageError) -> Data {
        let chunks = [("EXIF", copyright.exifPayload), ("XMP ", copyright.xmpPacket)].compactMap { name, payload in
            payload.map { (name, $0) }
        }
        guard let result = muxing(chunks, into: webp) else {
            throw ImageError(.encodingFailed, "libwebp's muxer cannot add the copyright")
        }
        return result
    }

    /// `webp` with each of `chunks` (a four-letter name and its payload) set by libwebp's
    /// muxer; `nil` when the muxer refuses. The muxer reads `webp` in place and copies each
    /// payload, and both are read only inside their closures.
    static func muxing(_ chunks: [(name: String, payload: [UInt8])], into webp: Data) -> Data? {
        webp.withUnsafeBytes { image -> Data? in
            var imageData = WebPData(bytes: image.baseAddress?.assumingMemoryBound(to: UInt8.self), size: image.count)
            guard let mux = WebPMuxCreateInternal(&imageData, 0, WEBP_MUX_ABI_VERSION) else { return nil }
            defer { WebPMuxDelete(mux) }
            for (name, payload) in chunks {
                let isSet = payload.withUnsafeBytes { bytes in
                    var chunk = WebPData(bytes: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: bytes.count)
                    return WebPMuxSetChunk(mux, name, &chunk, 1) == WEBP_MUX_OK
                }
                guard isSet else { return nil }
            }
            var output = WebPData()
            guard WebPMuxAssemble(mux, &output) == WEBP_MUX_OK else { return nil }
            defer { WebPFree(UnsafeMutableRawPointer(mutating: output.bytes)) }
            return Data(bytes: output.bytes, count: output.size)
        }
    }
}
