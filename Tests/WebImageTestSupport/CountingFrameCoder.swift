import Foundation
import NIOConcurrencyHelpers
import WebImageCore

/// An animated coder that wraps another and counts the frames its frame decoders decode,
/// so a test can tell which frames an ``AnimatedImage`` decoded and when. A gated one
/// decodes a frame after the first only when the test has handed out a permit
/// (``allow(_:)``), so a test can make decoding lag behind playback.
package final class CountingFrameCoder: AnimatedImageCoder {
    private let inner: any AnimatedImageCoder
    private let permits: DispatchSemaphore?
    /// The index of every frame decoded so far, in order.
    package let decodedFrames = NIOLockedValueBox<[Int]>([])

    /// Wraps `inner`; with `gated`, frames after the first wait for permits.
    package init(_ inner: any AnimatedImageCoder, gated: Bool = false) {
        self.inner = inner
        permits = gated ? DispatchSemaphore(value: 0) : nil
    }

    /// Lets `count` more frames of a gated coder decode.
    package func allow(_ count: Int) {
        for _ in 0..<count { permits?.signal() }
    }

    package func canDecode(_ data: Data) -> Bool { inner.canDecode(data) }

    package func decode(_ data: Data, options: ImageDecodeOptions) throws(ImageError) -> Image {
        try inner.decode(data, options: options)
    }

    package func animationInfo(of data: Data) throws(ImageError) -> AnimationInfo {
        try inner.animationInfo(of: data)
    }

    package func makeFrameDecoder(for bytes: PinnedBytes) throws(ImageError) -> (any AnimatedFrameDecoder)? {
        guard let decoder = try inner.makeFrameDecoder(for: bytes) else { return nil }
        return Counting(decoder, coder: self)
    }

    package func canEncode(to format: ImageFormat) -> Bool { false }

    package func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(ImageError) -> Data {
        throw ImageError(.unsupportedFormat, "the counting coder does not encode")
    }

    /// Records a frame about to decode, first waiting for a permit when gated and a frame
    /// has decoded already.
    fileprivate func willDecode(_ index: Int) {
        if let permits, decodedFrames.withLockedValue({ !$0.isEmpty }) {
            permits.wait()
        }
        decodedFrames.withLockedValue { $0.append(index) }
    }

    private final class Counting: AnimatedFrameDecoder {
        let inner: any AnimatedFrameDecoder
        let coder: CountingFrameCoder

        init(_ inner: any AnimatedFrameDecoder, coder: CountingFrameCoder) {
            self.inner = inner
            self.coder = coder
        }

        var nextFrameIndex: Int { inner.nextFrameIndex }

        func decodeNextFrame() throws(ImageError) -> Bitmap {
            coder.willDecode(inner.nextFrameIndex)
            return try inner.decodeNextFrame()
        }

        func rewind(toKeyFrameAtOrBefore index: Int) {
            inner.rewind(toKeyFrameAtOrBefore: index)
        }
    }
}
