import Foundation
import LoopbackHTTPServer
import Testing

@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// A GIF coder that is a class, so that a test can tell its instance apart.
private final class InstanceGIFCoder: AnimatedImageCoder {
    private let inner = GIFCoder()

    var decodableFormats: Set<ImageFormat> { inner.decodableFormats }
    func canDecode(_ data: Data) -> Bool { inner.canDecode(data) }
    func decode(_ data: Data, options: ImageDecodeOptions) throws(ImageError) -> Image { try inner.decode(data, options: options) }
    func animationInfo(of data: Data) throws(ImageError) -> AnimationInfo { try inner.animationInfo(of: data) }
    func makeFrameDecoder(for bytes: PinnedBytes) throws(ImageError) -> (any AnimatedFrameDecoder)? {
        try inner.makeFrameDecoder(for: bytes)
    }
    func animationPrefix(of data: Data) throws(ImageError) -> AnimationPrefix? { try inner.animationPrefix(of: data) }
    func canEncode(to format: ImageFormat) -> Bool { false }
    func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(ImageError) -> Data {
        throw ImageError(.unsupportedFormat, "this test coder does not encode")
    }
}

/// SDWebImage's progressive animated load: every partial image and the final one share
/// the coder (`animatedCoder`).
@Suite("ImageManager progressive animation coder", .timeLimit(.minutes(15)))
struct ImageManagerProgressiveCoderTests {
    @Test func everyPartialAnimationAndTheFinalOneNameTheSameCoder() async throws {
        let coder = InstanceGIFCoder()
        try await ManagerTestHarness.run(configure: { configuration in
            configuration.coders = ImageCodersManager(coders: ImageCodersManager.builtInCoders + [coder])
        }) { harness in
            let fixture = try ProgressiveAnimationFixture.make(.gif)
            let gates = [LoopbackGate(), LoopbackGate()]
            ImageManagerProgressiveAnimationTests.serveInChunks(fixture, at: "/stream.gif", on: harness.server, gates: gates)
            let recorder = ImageResponseRecorder()
            let request = ImageRequest(url: harness.url("/stream.gif"), options: [.progressiveDownload, .decodeFramesOnDemand])
            harness.manager.loadImage(with: request) { response in
                recorder.record(response)
                let frames = response.image?.animation?.frameCount ?? 0
                if frames >= 1 { gates[0].open() }
                if frames >= 3 { gates[1].open() }
            }
            try await recorder.waitForFinishedResponse()
            let animations = recorder.responses.compactMap(\.image?.animation)
            #expect(animations.count >= 2, "partial animations, then the final one")
            #expect(animations.last?.isComplete == true)
            for animation in animations {
                #expect(animation.coder as AnyObject? === coder)
            }
            #expect(AnimatedImage(Image(frames: ProgressiveAnimationFixture.frames(count: 2))).coder == nil)
        }
    }
}
