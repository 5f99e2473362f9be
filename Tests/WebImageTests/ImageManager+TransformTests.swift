import Foundation
import LoopbackHTTPServer
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite("ImageManager transformers and thumbnails", .timeLimit(.minutes(15)))
struct ImageManagerTransformTests {
    private let halfSize = ResizingImageTransformer(size: PixelSize(width: 4, height: 3))

    @Test func aTransformedImageIsStoredReencodedUnderTheTransformersKey() async throws {
        try await ManagerTestHarness.run { harness in
            let bytes = try ManagerTestImage.png(width: 8, height: 6)
            harness.serve("/a.png", bytes)
            let url = harness.url("/a.png")
            let request = ImageRequest(url: url, transformer: halfSize)
            let key = harness.manager.cacheKey(for: request)
            #expect(key == halfSize.transformedKey(for: url.absoluteString) && key != url.absoluteString)

            let response = try await harness.load(request)
            let image = try #require(response.image)
            #expect(image.pixelSize == PixelSize(width: 4, height: 3))
            #expect(response.data == nil, "the downloaded bytes are not the transformed image's")
            #expect(await harness.cache.diskImageExists(forKey: key))
            let stored = try #require(harness.cache.diskStorage.data(forKey: key))
            #expect(stored != bytes)
            #expect(try ImageCodersManager.shared.decode(stored).pixelSize == PixelSize(width: 4, height: 3))
            // The original goes to disk by default (SDWebImage 5's originalStoreCacheType), as downloaded.
            #expect(harness.cache.diskStorage.data(forKey: url.absoluteString) == bytes)
            #expect(harness.cache.imageFromMemory(forKey: key) === image)

            let again = try await harness.load(request, with: harness.makeManager())
            #expect(again.cacheType == .disk && again.image?.pixelSize == PixelSize(width: 4, height: 3))
            #expect(harness.server.requestCount(for: "/a.png") == 1)
        }
    }

    @Test func theOriginalIsStoredTooWhenAsked() async throws {
        try await ManagerTestHarness.run { harness in
            let bytes = try ManagerTestImage.png(width: 8, height: 6)
            harness.serve("/a.png", bytes)
            let url = harness.url("/a.png")
            let request = ImageRequest(url: url, transformer: halfSize, originalStoreCacheType: .disk)
            _ = try await harness.load(request)
            #expect(harness.cache.diskStorage.data(forKey: url.absoluteString) == bytes)
            #expect(harness.cache.imageFromMemory(forKey: url.absoluteString) == nil, "the original went to disk only")
            #expect(await harness.cache.diskImageExists(forKey: harness.manager.cacheKey(for: request)))
        }
    }

    @Test func theManagersTransformerServesRequestsThatNameNone() async throws {
        try await ManagerTestHarness.run { harness in
            harness.serve("/a.png", try ManagerTestImage.png(width: 8, height: 6))
            harness.manager.transformer = halfSize
            let url = harness.url("/a.png")
            let response = try await harness.load(url)
            #expect(response.image?.pixelSize == PixelSize(width: 4, height: 3))
            #expect(await harness.cache.diskImageExists(forKey: halfSize.transformedKey(for: url.absoluteString)))
        }
    }

    @Test func animatedImagesSkipTheTransformUnlessAsked() async throws {
        try await ManagerTestHarness.run { harness in
            harness.serve("/anim.png", try ManagerTestImage.animatedPNG(width: 8, height: 6, frameCount: 2))
            let url = harness.url("/anim.png")
            let skipped = try await harness.load(ImageRequest(url: url, transformer: halfSize))
            #expect(skipped.image?.frames.count == 2)
            #expect(skipped.image?.pixelSize == PixelSize(width: 8, height: 6))

            let transformed = try await harness.load(ImageRequest(url: url, options: [.transformAnimatedImage, .fromLoaderOnly], transformer: halfSize))
            let image = try #require(transformed.image)
            #expect(image.frames.count == 2)
            #expect(image.pixelSize == PixelSize(width: 4, height: 3))
            let stored = try #require(harness.cache.diskStorage.data(forKey: harness.manager.cacheKey(for: ImageRequest(url: url, transformer: halfSize))))
            let decoded = try ImageCodersManager.shared.decode(stored)
            #expect(decoded.frames.count == 2 && decoded.pixelSize == PixelSize(width: 4, height: 3))
        }
    }

    @Test func aThumbnailIsDecodedSmallAndCachedUnderItsOwnKey() async throws {
        try await ManagerTestHarness.run { harness in
            harness.serve("/big.png", try ManagerTestImage.png(width: 64, height: 48))
            let url = harness.url("/big.png")
            let request = ImageRequest(url: url, thumbnailPixelSize: PixelSize(width: 16, height: 16))
            let thumbnail = try await harness.load(request)
            #expect(thumbnail.image?.pixelSize == PixelSize(width: 16, height: 12))
            #expect(await harness.cache.diskImageExists(forKey: harness.manager.cacheKey(for: request)))
            #expect(harness.cache.imageFromMemory(forKey: url.absoluteString) == nil)
            // The original was stored on disk beside the thumbnail, so the full size needs no request.
            let full = try await harness.load(url)
            #expect(full.cacheType == .disk && full.image?.pixelSize == PixelSize(width: 64, height: 48))
            #expect(harness.server.requestCount(for: "/big.png") == 1)
        }
    }
}
