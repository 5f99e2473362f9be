import Foundation
import Testing

@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// SDWebImage's `shouldUseWeakMemoryCache`: a key the memory cache evicted still answers
/// while its image is alive elsewhere.
@Suite("ImageCache weak memory cache")
struct ImageCacheWeakMemoryTests {
    private let folder = TemporaryDirectory(prefix: "image-cache-weak")

    private func makeCache(weak: Bool) -> ImageCache {
        var configuration = ImageCacheConfiguration()
        configuration.maxMemoryCount = 1
        configuration.shouldUseWeakMemoryCache = weak
        return ImageCache(namespace: "test", directory: folder.url, configuration: configuration, coders: RawTestCoder.manager())
    }

    @Test func anEvictedImageHeldElsewhereStillAnswersAndReturnsToMemory() throws {
        #expect(!ImageCacheConfiguration().shouldUseWeakMemoryCache, "off by default, as in SDWebImage 5.12 and later")
        let cache = makeCache(weak: true)
        let held = RawTestCoder.image(width: 4, height: 3)
        cache.store(held, forKey: "a", scope: .memory)
        cache.store(RawTestCoder.image(width: 5, height: 3), forKey: "b", scope: .memory)
        #expect(cache.memoryCache.containsEntry(forKey: "a") == false, "the count limit evicted it")

        #expect(cache.imageFromMemory(forKey: "a") === held)
        let hit = try #require(cache.memoryResult(forKey: "a", decodeOptions: nil))
        #expect(hit.image === held && hit.cacheType == .memory)
        #expect(cache.memoryCache.containsEntry(forKey: "a"), "the weak hit went back into the memory cache")
    }

    @Test func withoutTheWeakCacheAnEvictedImageMisses() {
        let cache = makeCache(weak: false)
        let held = RawTestCoder.image(width: 4, height: 3)
        cache.store(held, forKey: "a", scope: .memory)
        cache.store(RawTestCoder.image(width: 5, height: 3), forKey: "b", scope: .memory)
        #expect(cache.imageFromMemory(forKey: "a") == nil)
    }

    @Test func anImageNoLongerAliveMissesAndRemovalForgetsTheWeakEntry() {
        let cache = makeCache(weak: true)
        storeAndDrop(in: cache, forKey: "gone")
        cache.store(RawTestCoder.image(width: 5, height: 3), forKey: "b", scope: .memory)
        #expect(cache.imageFromMemory(forKey: "gone") == nil)

        let held = RawTestCoder.image(width: 4, height: 3)
        cache.store(held, forKey: "a", scope: .memory)
        cache.removeImage(forKey: "a", scope: .memory)
        #expect(cache.imageFromMemory(forKey: "a") == nil, "a removed key is gone from both tables")
        cache.store(held, forKey: "a", scope: .memory)
        cache.clearMemory()
        #expect(cache.imageFromMemory(forKey: "a") == nil)
    }

    /// Stores an image that nothing else keeps.
    private func storeAndDrop(in cache: ImageCache, forKey key: String) {
        cache.store(RawTestCoder.image(width: 4, height: 3), forKey: key, scope: .memory)
    }
}
