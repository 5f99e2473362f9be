import Foundation
import NIOConcurrencyHelpers
@testable import WebImage

/// An animated coder that wraps another and counts the frames its frame decoders decode,
/// so a test can tell which frames an ``AnimatedImage`` decoded and when.
final class CountingFrameCoder: AnimatedImageCoder {
    private let inner: any AnimatedImageCoder
    /// The index of every frame decoded so far, in order.
    let decodedFrames = NIOLockedValueBox<[Int]>([])

    init(_ inner: any AnimatedImageCoder) {
        self.inner = inner
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
        return Counting(decoder, log: decodedFrames)
    }

    func canEncode(to format: ImageFormat) -> Bool { false }

    func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(ImageError) -> Data {
        throw ImageError(.unsupportedFormat, "the counting coder does not encode")
    }

    private final class Counting: AnimatedFrameDecoder {
        let inner: any AnimatedFrameDecoder
        let log: NIOLockedValueBox<[Int]>

        init(_ inner: any AnimatedFrameDecoder, log: NIOLockedValueBox<[Int]>) {
            self.inner = inner
            self.log = log
        }

        var nextFrameIndex: Int { inner.nextFrameIndex }

        func decodeNextFrame() throws(ImageError) -> Bitmap {
            let index = inner.nextFrameIndex
            log.withLockedValue { $0.append(index) }
            return try inner.decodeNextFrame()
        }

        func rewind(toKeyFrameAtOrBefore index: Int) {
            inner.rewind(toKeyFrameAtOrBefore: index)
        }
    }
}
