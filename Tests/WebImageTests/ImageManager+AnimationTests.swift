import Foundation
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// ``ImageOptions/decodeFramesOnDemand``: the manager answers with an image standing for an
/// ``AnimatedImage``, caches its bytes once, and never hands it to a request that wants
/// every frame.
@Suite("ImageManager animations", .timeLimit(.minutes(15)))
struct ImageManagerAnimationTests {
    @Test func framesOnDemandComeAsAnAnimatedImage() async throws {
        try await ManagerTestHarness.run { harness in
            let gif = try TestImages.animatedGIF()
            harness.serve("/a.gif", gif.data, headers: [("Content-Type", "image/gif")])
            let url = harness.url("/a.gif")

            let lazy = try await harness.load(url, options: [.decodeFramesOnDemand])
            let image = try #require(lazy.image)
            let animation = try #require(image.animation)
            #expect(image.frames.count == 1 && image.isAnimated)
            #expect(animation.frameCount == 4)
            #expect(try animation.frame(at: 2).bitmap == gif.frames[2].bitmap)
            let key = harness.manager.cacheKey(for: url)
            #expect(harness.cache.imageFromMemory(forKey: key)?.animation === animation)

            let again = try await harness.load(url, options: [.decodeFramesOnDemand])
            #expect(again.cacheType == .memory)
            #expect(again.image?.animation === animation)

            // A request for every frame does not take the lazy entry: the disk answers it.
            let whole = try await harness.load(url)
            #expect(whole.cacheType == .disk)
            #expect(whole.image?.animation == nil)
            #expect(whole.image?.frames.map(\.bitmap) == gif.frames.map(\.bitmap))
            #expect(harness.server.requestCount(for: "/a.gif") == 1)
        }
    }

    @Test func aThumbnailDecodedOnDemandStoresTheAnimationsBytes() async throws {
        try await ManagerTestHarness.run { harness in
            let gif = try TestImages.animatedGIF()
            harness.serve("/t.gif", gif.data, headers: [("Content-Type", "image/gif")])
            let request = ImageRequest(
                url: harness.url("/t.gif"), options: [.decodeFramesOnDemand],
                thumbnailPixelSize: PixelSize(width: 4, height: 4)
            )
            let response = try await harness.load(request)
            let animation = try #require(response.image?.animation)
            #expect(animation.frameSize == PixelSize(width: 4, height: 4))
            #expect(try animation.frame(at: 3).bitmap.size == PixelSize(width: 4, height: 4))
            let stored = harness.cache.diskStorage.data(forKey: harness.manager.cacheKey(for: request))
            #expect(stored == gif.data)
        }
    }
}
