import CWebP
import WebImageCore

/// Composes the frames of one animated WebP one at a time with libwebp's animation
/// decoder, for an ``AnimatedImage``.
///
/// libwebp's decoder only goes forward, so going back to an earlier frame starts again
/// from frame 0.
final class WebPFrameDecoder: AnimatedFrameDecoder {
    private let bytes: PinnedBytes
    private let decoder: OpaquePointer
    private let canvas: PixelSize
    private(set) var nextFrameIndex = 0

    /// Opens the animation in `bytes`; `nil` for a still WebP.
    init?(bytes: PinnedBytes) throws(ImageError) {
        let features = try WebPCoder.features(of: bytes.bytes)
        guard features.has_animation != 0 else { return nil }
        var options = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInitInternal(&options, WEBP_DEMUX_ABI_VERSION) != 0 else {
            throw ImageError(.badImageData, "libwebp refused its animation decoder options")
        }
        options.color_mode = MODE_RGBA
        var webPData = WebPData(bytes: bytes.bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        guard let decoder = WebPAnimDecoderNewInternal(&webPData, &options, WEBP_DEMUX_ABI_VERSION) else {
            throw ImageError(.badImageData, "WebP animation is invalid: the demuxer rejected it")
        }
        self.bytes = bytes
        self.decoder = decoder
        canvas = PixelSize(width: Int(features.width), height: Int(features.height))
    }

    deinit {
        WebPAnimDecoderDelete(decoder)
    }

    func decodeNextFrame() throws(ImageError) -> Bitmap {
        var buffer: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        guard WebPAnimDecoderHasMoreFrames(decoder) != 0,
            WebPAnimDecoderGetNext(decoder, &buffer, &timestamp) != 0, let buffer
        else {
            let index = nextFrameIndex
            rewind(toKeyFrameAtOrBefore: 0)
            throw ImageError(.badImageData, "WebP animation is invalid: frame \(index) failed to decode")
        }
        let pixels = try [UInt8](unsafeUninitializedImageSized: canvas.width, canvas.height, 4) { output, initialized in
            output.baseAddress!.initialize(from: buffer, count: output.count)
            initialized = output.count
        }
        nextFrameIndex += 1
        return Bitmap(width: canvas.width, height: canvas.height, pixels: pixels)
    }

    func rewind(toKeyFrameAtOrBefore index: Int) {
        guard index < nextFrameIndex else { return }
        WebPAnimDecoderReset(decoder)
        nextFrameIndex = 0
    }
}
