import Foundation
import LoopbackHTTPServer
import Testing

@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// Two real caches (memory and files in a temporary folder) behind one caches manager.
@Suite("ImageCachesManager")
struct ImageCachesManagerTests {
    private let folder = TemporaryDirectory(prefix: "caches-manager")

    private func makeCache(_ namespace: String) -> ImageCache {
        ImageCache(namespace: namespace, directory: folder.url)
    }

    /// An image whose width tells the caches apart.
    private func image(width: Int) -> Image {
        Image(bitmap: ManagerTestImage.bitmap(width: width, height: 2, tint: 0))
    }

    private func width(of result: ImageCacheResult?) -> Int? {
        result?.image.pixelSize.width
    }

    @Test func queriesFollowTheirPolicy() async throws {
        let low = makeCache("low"), high = makeCache("high")
        let caches = ImageCachesManager(caches: [low, high])
        try await low.store(image(width: 1), forKey: "both", scope: .memory)
        try await high.store(image(width: 2), forKey: "both", scope: .memory)
        try await low.store(image(width: 3), forKey: "low-only", scope: .all)

        #expect(caches.queryPolicy == .serial)
        #expect(width(of: try await caches.image(forKey: "both", scope: .all, decodeOptions: nil)) == 2, "highest first")
        #expect(width(of: try await caches.image(forKey: "low-only", scope: .all, decodeOptions: nil)) == 3, "then lower")
        #expect(width(of: caches.memoryResult(forKey: "both", decodeOptions: nil)) == 2)

        caches.queryPolicy = .highestOnly
        #expect(try await caches.image(forKey: "low-only", scope: .all, decodeOptions: nil) == nil)
        #expect(caches.memoryResult(forKey: "low-only", decodeOptions: nil) == nil)
        caches.queryPolicy = .lowestOnly
        #expect(width(of: try await caches.image(forKey: "both", scope: .all, decodeOptions: nil)) == 1)
        caches.queryPolicy = .all
        #expect(width(of: try await caches.image(forKey: "both", scope: .all, decodeOptions: nil)) == 2, "all answer; the highest wins")
        #expect(width(of: try await caches.image(forKey: "low-only", scope: .all, decodeOptions: nil)) == 3)
        caches.queryPolicy = .concurrent
        #expect([1, 2].contains(width(of: try await caches.image(forKey: "both", scope: .all, decodeOptions: nil))))
        #expect(width(of: try await caches.image(forKey: "low-only", scope: .all, decodeOptions: nil)) == 3)
        #expect(try await caches.image(forKey: "absent", scope: .all, decodeOptions: nil) == nil)
        // The scope reaches each cache: the low cache's entry is on disk as well as in memory.
        caches.queryPolicy = .serial
        #expect(try await caches.image(forKey: "low-only", scope: .disk, decodeOptions: nil)?.cacheType == .disk)
        #expect(try await caches.image(forKey: "both", scope: .disk, decodeOptions: nil) == nil)

        #expect(caches.containsPolicy == .serial)
        #expect(await caches.containsImage(forKey: "low-only", scope: .all) == .memory)
        #expect(await caches.containsImage(forKey: "low-only", scope: .disk) == .disk)
        caches.containsPolicy = .highestOnly
        #expect(await caches.containsImage(forKey: "low-only", scope: .all) == .none)
    }

    @Test func storesRemovesAndClearsFollowTheirPolicy() async throws {
        let low = makeCache("low"), high = makeCache("high")
        let caches = ImageCachesManager(caches: [low])
        caches.addCache(high)
        #expect(caches.caches.count == 2)

        #expect(caches.storePolicy == .highestOnly)
        try await caches.store(image(width: 4), data: nil, forKey: "a", scope: .all, metadata: nil)
        #expect(await high.containsImage(forKey: "a", scope: .disk) == .disk)
        #expect(await low.containsImage(forKey: "a", scope: .all) == .none)
        caches.storePolicy = .lowestOnly
        try await caches.store(image(width: 5), data: nil, forKey: "b", scope: .memory, metadata: nil)
        #expect(await low.containsImage(forKey: "b", scope: .all) == .memory)
        #expect(await high.containsImage(forKey: "b", scope: .all) == .none)
        for policy in [ImageCachesManager.Policy.serial, .concurrent, .all] {
            caches.storePolicy = policy
            try await caches.store(image(width: 6), data: nil, forKey: "every-\(policy)", scope: .all, metadata: nil)
            #expect(await low.containsImage(forKey: "every-\(policy)", scope: .disk) == .disk, "\(policy)")
            #expect(await high.containsImage(forKey: "every-\(policy)", scope: .disk) == .disk, "\(policy)")
        }

        caches.removePolicy = .highestOnly
        await caches.removeImage(forKey: "every-all", scope: .all)
        #expect(await high.containsImage(forKey: "every-all", scope: .all) == .none)
        #expect(await low.containsImage(forKey: "every-all", scope: .all) == .memory)
        caches.removePolicy = .concurrent
        await caches.removeImage(forKey: "every-serial", scope: .all)
        #expect(await caches.containsImage(forKey: "every-serial", scope: .all) == .none)
        #expect(await low.containsImage(forKey: "every-serial", scope: .all) == .none)

        #expect(caches.clearPolicy == .concurrent)
        await caches.clear(scope: .memory)
        #expect(await low.containsImage(forKey: "every-concurrent", scope: .all) == .disk, "the disk level stays")
        await caches.clear(scope: .all)
        #expect(await low.totalDiskCount() == 0)
        #expect(await high.totalDiskCount() == 0)
    }

    @Test func theManagerLoadsThroughACachesManagerAndPerRequestCaches() async throws {
        try await ManagerTestHarness.run { harness in
            harness.serve("/a.png", try ManagerTestImage.png(width: 8, height: 6))
            harness.serve("/b.png", try ManagerTestImage.png(width: 8, height: 6))
            let low = makeCache("low"), high = makeCache("high")
            let manager = ImageManager(cache: ImageCachesManager(caches: [low, high]), loader: harness.downloader)
            let url = harness.url("/a.png")

            #expect(try await harness.load(url, with: manager).cacheType == .none)
            #expect(await high.containsImage(forKey: url.absoluteString, scope: .all) == .memory)
            #expect(await low.containsImage(forKey: url.absoluteString, scope: .all) == .none)
            // The synchronous memory hit answers through the caches manager too.
            let recorder = ImageResponseRecorder()
            manager.loadImage(with: url, completion: recorder.record)
            #expect(recorder.responses.map(\.cacheType) == [.memory])
            #expect(await manager.cachedImageExists(for: url))

            // Per request: the final image in one cache, the original in another.
            let final = makeCache("final"), original = makeCache("original")
            var request = ImageRequest(
                url: harness.url("/b.png"), transformer: ResizingImageTransformer(size: PixelSize(width: 4, height: 3)),
                originalStoreCacheType: .disk)
            request.cache = final
            request.originalCache = original
            let response = try await harness.load(request, with: manager)
            #expect(response.image?.pixelSize == PixelSize(width: 4, height: 3))
            let key = manager.cacheKey(for: request)
            #expect(await final.containsImage(forKey: key, scope: .disk) == .disk)
            #expect(await original.containsImage(forKey: request.url!.absoluteString, scope: .disk) == .disk)
            #expect(await final.containsImage(forKey: request.url!.absoluteString, scope: .all) == .none)
            #expect(await manager.cache.containsImage(forKey: key, scope: .all) == .none)
            // The next load of the request is a hit in its own cache.
            #expect(try await harness.load(request, with: manager).cacheType == .memory)
            #expect(harness.server.requestCount(for: "/b.png") == 1)
        }
    }

    /// A load that stores to disk only (``ImageRequest/storeCacheType`` `.disk`) through a
    /// caches manager leaves the disk hit out of memory, as it does through one cache: the
    /// manager passes the store scope on to the cache that answers.
    @Test func aDiskOnlyStoreScopeReachesTheCacheThatAnswers() async throws {
        try await ManagerTestHarness.run { harness in
            let low = makeCache("low"), high = makeCache("high")
            let manager = ImageManager(cache: ImageCachesManager(caches: [low, high]), loader: harness.downloader)
            let url = harness.url("/a.png")
            try low.diskStorage.store(try ManagerTestImage.png(), forKey: url.absoluteString, metadata: nil)

            let diskOnly = try await harness.load(ImageRequest(url: url, storeCacheType: .disk), with: manager)
            #expect(diskOnly.cacheType == .disk)
            #expect(low.imageFromMemory(forKey: url.absoluteString) == nil, "the disk hit stays out of memory")

            let promoted = try await harness.load(ImageRequest(url: url), with: manager)
            #expect(promoted.cacheType == .disk)
            #expect(low.imageFromMemory(forKey: url.absoluteString) != nil, "a load storing everywhere promotes it")
            #expect(harness.server.requestCount(for: "/a.png") == 0)
        }
    }
}
