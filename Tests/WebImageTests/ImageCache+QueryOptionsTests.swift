import Foundation
import LoopbackHTTPServer
import Testing

@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// SDWebImage's `matchAnimatedImageClass` on a memory hit, and `storeCacheType` on a
/// cache query (a disk hit kept out of memory when the load stores to disk only).
@Suite("ImageCache query options", .timeLimit(.minutes(15)))
struct ImageCacheQueryOptionsTests {
    private let folder = TemporaryDirectory(prefix: "image-cache-query-options")

    @Test func aWholeDecodedAnimationMissesWhenFramesOnDemandAreRequired() async throws {
        let cache = ImageCache(namespace: "test", directory: folder.url)
        let bytes = try ManagerTestImage.animatedPNG(width: 8, height: 6, frameCount: 3)
        let whole = try ImageCodersManager.shared.decode(bytes)
        #expect(whole.isAnimated && whole.animation == nil)
        try await cache.store(whole, data: bytes, forKey: "k")

        var onDemand = ImageDecodeOptions()
        onDemand.decodesFramesOnDemand = true
        let loose = try #require(try await cache.image(forKey: "k", decodeOptions: onDemand))
        #expect(loose.cacheType == .memory && loose.image === whole, "without the match, the whole animation answers")

        var matching = onDemand
        matching.requiresFramesOnDemand = true
        #expect(cache.memoryResult(forKey: "k", decodeOptions: matching) == nil)
        let matched = try #require(try await cache.image(forKey: "k", decodeOptions: matching))
        #expect(matched.cacheType == .disk)
        #expect(matched.image.animation?.frameCount == 3)
    }

    @Test func theManagerPassesMatchAnimatedImageClassToTheSynchronousMemoryHit() async throws {
        try await ManagerTestHarness.run { harness in
            let bytes = try ManagerTestImage.animatedPNG(width: 8, height: 6, frameCount: 3)
            harness.serve("/anim.png", bytes)
            let url = harness.url("/anim.png")
            let whole = try await harness.load(ImageRequest(url: url))
            #expect(whole.image?.animation == nil && whole.image?.isAnimated == true)

            let loose = try await harness.load(ImageRequest(url: url, options: .decodeFramesOnDemand))
            #expect(loose.cacheType == .memory)
            let matched = try await harness.load(ImageRequest(url: url, options: [.decodeFramesOnDemand, .matchAnimatedImageClass]))
            #expect(matched.cacheType == .disk)
            #expect(matched.image?.animation != nil)
        }
    }

    @Test func aDiskHitStaysOutOfMemoryWhenTheStoreScopeHasNoMemory() async throws {
        let cache = ImageCache(namespace: "test", directory: folder.url)
        try cache.diskStorage.store(try ManagerTestImage.png(width: 8, height: 6), forKey: "k", metadata: nil)

        let diskOnly = try #require(try await cache.image(forKey: "k", scope: .all, decodeOptions: nil, storeScope: .disk))
        #expect(diskOnly.cacheType == .disk)
        #expect(cache.imageFromMemory(forKey: "k") == nil)

        let promoted = try #require(try await cache.image(forKey: "k", scope: .all, decodeOptions: nil, storeScope: .all))
        #expect(promoted.cacheType == .disk)
        #expect(cache.imageFromMemory(forKey: "k") === promoted.image)
    }

    @Test func aLoadStoringToDiskOnlyLeavesItsDiskHitOutOfMemory() async throws {
        try await ManagerTestHarness.run { harness in
            let url = harness.url("/a.png")
            try harness.cache.diskStorage.store(try ManagerTestImage.png(), forKey: url.absoluteString, metadata: nil)
            let response = try await harness.load(ImageRequest(url: url, storeCacheType: .disk))
            #expect(response.cacheType == .disk)
            #expect(harness.cache.imageFromMemory(forKey: url.absoluteString) == nil)
            #expect(harness.server.requestCount(for: "/a.png") == 0)
        }
    }
}
