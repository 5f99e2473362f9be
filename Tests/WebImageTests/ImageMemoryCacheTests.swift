import Foundation
import LoopbackHTTPServer
import Testing

@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// A memory cache named in the configuration replaces the built-in one.
@Suite("ImageMemoryCache")
struct ImageMemoryCacheTests {
    @Test func aCustomMemoryCacheReceivesEveryStoreAndAnswersHits() async throws {
        try await ManagerTestHarness.run { harness in
            harness.serve("/a.png", try ManagerTestImage.png(tint: 1))
            harness.serve("/b.png", try ManagerTestImage.png(tint: 2))
            var configuration = ImageCacheConfiguration()
            configuration.memoryCacheType = ImageMemoryCacheType(RecordingMemoryCache.self)
            #expect(configuration.memoryCacheType == ImageMemoryCacheType(RecordingMemoryCache.self))
            #expect(ImageCacheConfiguration().memoryCacheType == nil)
            let cache = ImageCache(namespace: "custom-memory", directory: harness.folder.url, configuration: configuration)
            let memoryCache = try #require(cache.memoryCache as? RecordingMemoryCache)
            let manager = ImageManager(cache: cache, loader: harness.downloader)
            let a = harness.url("/a.png"), b = harness.url("/b.png")

            // A download, a direct store, and a disk hit promoted into memory: three stores.
            #expect(try await harness.load(a, with: manager).cacheType == .none)
            try await cache.store(Image(bitmap: ManagerTestImage.bitmap(width: 2, height: 2, tint: 3)), forKey: "direct", scope: .memory)
            try await cache.store(nil, data: try ManagerTestImage.png(tint: 2), forKey: b.absoluteString, scope: .disk)
            #expect(try await harness.load(b, with: manager).cacheType == .disk)
            #expect(memoryCache.stores == [a.absoluteString, "direct", b.absoluteString])

            // Hits come from the memory cache, synchronously through the manager too.
            let lookups = memoryCache.lookups
            let recorder = ImageResponseRecorder()
            manager.loadImage(with: a, completion: recorder.record)
            #expect(recorder.responses.map(\.cacheType) == [.memory])
            #expect(recorder.responses.first?.image?.bitmap.rgba8(x: 0, y: 0).blue == 1)
            #expect(memoryCache.lookups > lookups)
            #expect(cache.imageFromMemory(forKey: "direct") != nil)

            await cache.removeImage(forKey: "direct", scope: .memory)
            #expect(!memoryCache.containsEntry(forKey: "direct"))
            cache.clearMemory()
            #expect(!memoryCache.containsEntry(forKey: a.absoluteString))
            #expect(harness.server.requestCount(for: "/a.png") == 1 && harness.server.requestCount(for: "/b.png") == 0)
        }
    }
}
