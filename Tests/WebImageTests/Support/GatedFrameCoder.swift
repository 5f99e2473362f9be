import Foundation
import NIOConcurrencyHelpers
@testable import WebImage

/// A GIF coder whose frame decoders decode a frame after the poster only when the test
/// has handed out a permit, so a test can make decoding lag behind playback.
final class GatedFrameCoder: AnimatedImageCoder {
    private let inner = GIFCoder()
    private let permits = DispatchSemaphore(value: 0)
    /// Every frame decoded, in order (the poster first).
    let decodedFrames = NIOLockedValueBox<[Int]>([])

    /// Lets `count` more frames decode.
    func allow(_ count: Int) {
        for _ in 0..<count { permits.signal() }
    }

    func canDecode(_ data: Data) -> Bool { inner.canDecode(data) }

    func decode(_ data: Data, options: ImageDecodeOptions) throws(ImageError) -> Image {
        try inner.decode(data, options: options)
    }

    func animationInfo(of data: Data) throws(ImageError) -> AnimationInfo {
        try inner.animationInfo(of: data)
    }

    func makeFrameDecoder(for bytes: PinnedBytes) throws(ImageError) -> (any AnimatedFrameDecoder)? {
        guard let decoder = try inner.makeFrameDecoder(for: bytes) else { return nil }
        return Gated(decoder, coder: self)
    }

    func canEncode(to format: ImageFormat) -> Bool { false }

    func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(ImageError) -> Data {
        throw ImageError(.unsupportedFormat, "the gated frame coder does not encode")
    }

    fileprivate func waitForPermit() {
        permits.wait()
    }

    private final class Gated: AnimatedFrameDecoder {
        let inner: any AnimatedFrameDecoder
        let coder: GatedFrameCoder

        init(_ inner: any AnimatedFrameDecoder, coder: GatedFrameCoder) {
            self.inner = inner
            self.coder = coder
        }

        var nextFrameIndex: Int { inner.nextFrameIndex }

        func decodeNextFrame() throws(ImageError) -> Bitmap {
            let index = inner.nextFrameIndex
            if coder.decodedFrames.withLockedValue({ !$0.isEmpty }) {
                coder.waitForPermit()
            }
            coder.decodedFrames.withLockedValue { $0.append(index) }
            return try inner.decodeNextFrame()
        }

        func rewind(toKeyFrameAtOrBefore index: Int) {
            inner.rewind(toKeyFrameAtOrBefore: index)
        }
    }
}
