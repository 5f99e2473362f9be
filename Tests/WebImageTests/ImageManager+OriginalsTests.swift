import Foundation
import LoopbackHTTPServer
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite("ImageManager original and derived entries", .timeLimit(.minutes(15)))
struct ImageManagerOriginalsTests {
    private let halfSize = ResizingImageTransformer(size: PixelSize(width: 4, height: 3))

    @Test func aDerivedKeyMissIsAnsweredFromTheOriginalWithNoRequest() async throws {
        try await ManagerTestHarness.run { harness in
            let bytes = try ManagerTestImage.png(width: 8, height: 6)
            harness.serve("/a.png", bytes)
            let url = harness.url("/a.png")
            #expect(try await harness.load(url).cacheType == .none)
            #expect(harness.server.requestCount(for: "/a.png") == 1)

            let manager = harness.makeManager()
            let request = ImageRequest(url: url, transformer: halfSize)
            let key = manager.cacheKey(for: request)
            let response = try await harness.load(request, with: manager)
            #expect(response.error == nil)
            #expect(response.image?.pixelSize == PixelSize(width: 4, height: 3))
            #expect(response.cacheType == .disk, "the original answered from disk")
            #expect(response.data == nil, "the original's bytes are not the derived image's")
            #expect(harness.server.requestCount(for: "/a.png") == 1, "no request reached the server")

            let cache = try #require(manager.imageCache)
            let stored = try #require(cache.diskStorage.data(forKey: key), "the derived image is stored under its key")
            #expect(try ImageCodersManager.shared.decode(stored).pixelSize == PixelSize(width: 4, height: 3))
            #expect(cache.diskStorage.data(forKey: url.absoluteString) == bytes, "the original is left as it was")
            #expect(try await harness.load(request, with: manager).cacheType == .memory)
            #expect(harness.server.requestCount(for: "/a.png") == 1)
        }
    }

    @Test func aThumbnailOverAFullSizeDiskEntryDecodesItSmallAndLeavesItAlone() async throws {
        try await ManagerTestHarness.run { harness in
            harness.serve("/big.png", try ManagerTestImage.png(width: 64, height: 48))
            let url = harness.url("/big.png")
            #expect(try await harness.load(url).image?.pixelSize == PixelSize(width: 64, height: 48))
            let fullSizePath = try #require(harness.cache.cachePath(forKey: url.absoluteString))
            let fullSizeBytes = try Data(contentsOf: URL(fileURLWithPath: fullSizePath))

            let manager = harness.makeManager()
            let cache = try #require(manager.imageCache)
            let request = ImageRequest(url: url, thumbnailPixelSize: PixelSize(width: 16, height: 16))
            let thumbnail = try await harness.load(request, with: manager)
            #expect(thumbnail.image?.pixelSize == PixelSize(width: 16, height: 12))
            #expect(thumbnail.cacheType == .disk)
            #expect(harness.server.requestCount(for: "/big.png") == 1, "no request reached the server")

            let thumbnailKey = manager.cacheKey(for: request)
            let stored = try #require(cache.diskStorage.data(forKey: thumbnailKey), "stored under the thumbnail key")
            #expect(try ImageCodersManager.shared.decode(stored).pixelSize == PixelSize(width: 16, height: 12))
            #expect(cache.imageFromMemory(forKey: thumbnailKey)?.pixelSize == PixelSize(width: 16, height: 12))
            #expect(cache.imageFromMemory(forKey: url.absoluteString) == nil, "the thumbnail never stands for the full size")
            #expect(try Data(contentsOf: URL(fileURLWithPath: fullSizePath)) == fullSizeBytes, "byte-identical")
            #expect(try await harness.load(url, with: manager).image?.pixelSize == PixelSize(width: 64, height: 48))
            #expect(harness.server.requestCount(for: "/big.png") == 1)
        }
    }

    @Test func aFullSizeMemoryEntryAnswersAThumbnailWhenMemoryIsAsked() async throws {
        try await ManagerTestHarness.run { harness in
            harness.serve("/big.png", try ManagerTestImage.png(width: 64, height: 48))
            let url = harness.url("/big.png")
            _ = try await harness.load(url, options: .cacheMemoryOnly)
            let request = ImageRequest(
                url: url, thumbnailPixelSize: PixelSize(width: 16, height: 16), originalQueryCacheType: .memory)
            let thumbnail = try await harness.load(request)
            #expect(thumbnail.image?.pixelSize == PixelSize(width: 16, height: 12))
            #expect(thumbnail.cacheType == .memory)
            #expect(harness.server.requestCount(for: "/big.png") == 1)
        }
    }

    @Test func theOriginalIsStoredInTheLevelsTheRequestNames() async throws {
        try await ManagerTestHarness.run { harness in
            let bytes = try ManagerTestImage.png(width: 8, height: 6)
            harness.serve("/both.png", bytes)
            harness.serve("/memory.png", bytes)
            let both = harness.url("/both.png"), memory = harness.url("/memory.png")
            _ = try await harness.load(ImageRequest(url: both, transformer: halfSize, originalStoreCacheType: .all))
            #expect(harness.cache.imageFromMemory(forKey: both.absoluteString)?.pixelSize == PixelSize(width: 8, height: 6))
            #expect(harness.cache.diskStorage.data(forKey: both.absoluteString) == bytes)

            _ = try await harness.load(ImageRequest(url: memory, transformer: halfSize, originalStoreCacheType: .memory))
            #expect(harness.cache.imageFromMemory(forKey: memory.absoluteString)?.pixelSize == PixelSize(width: 8, height: 6))
            #expect(harness.cache.diskStorage.data(forKey: memory.absoluteString) == nil)

            // Another transformer's key misses; the original kept in memory answers it.
            let quarter = ResizingImageTransformer(size: PixelSize(width: 2, height: 2))
            let derived = try await harness.load(
                ImageRequest(url: memory, transformer: quarter, originalQueryCacheType: .all))
            #expect(derived.cacheType == .memory && derived.image?.pixelSize == PixelSize(width: 2, height: 2))
            #expect(harness.server.requestCount(for: "/memory.png") == 1)
        }
    }

    @Test func theDefaultOriginalQueryReadsTheDiskOnly() async throws {
        try await ManagerTestHarness.run { harness in
            harness.serve("/a.png", try ManagerTestImage.png(width: 8, height: 6))
            let url = harness.url("/a.png")
            _ = try await harness.load(url, options: .cacheMemoryOnly)
            #expect(ImageRequest(url: url).originalQueryCacheType == .disk)
            let response = try await harness.load(ImageRequest(url: url, transformer: halfSize))
            #expect(response.cacheType == .none && response.image?.pixelSize == PixelSize(width: 4, height: 3))
            #expect(harness.server.requestCount(for: "/a.png") == 2, "the memory original was not asked")
        }
    }

    @Test func noOriginalQueryDownloads() async throws {
        try await ManagerTestHarness.run { harness in
            harness.serve("/a.png", try ManagerTestImage.png(width: 8, height: 6))
            let url = harness.url("/a.png")
            _ = try await harness.load(url)
            let response = try await harness.load(
                ImageRequest(url: url, transformer: halfSize, originalQueryCacheType: .none), with: harness.makeManager())
            #expect(response.cacheType == .none && response.image?.pixelSize == PixelSize(width: 4, height: 3))
            #expect(harness.server.requestCount(for: "/a.png") == 2)
        }
    }

    @Test func theOriginalIsReadFromTheRequestsOriginalCache() async throws {
        try await ManagerTestHarness.run { harness in
            let bytes = try ManagerTestImage.png(width: 8, height: 6)
            harness.serve("/a.png", bytes)
            let url = harness.url("/a.png")
            let originals = ImageCache(namespace: "originals", directory: harness.folder.url)
            try await originals.store(nil, data: bytes, forKey: url.absoluteString, scope: .disk)
            var request = ImageRequest(url: url, transformer: halfSize)
            request.originalCache = originals
            let response = try await harness.load(request)
            #expect(response.cacheType == .disk && response.image?.pixelSize == PixelSize(width: 4, height: 3))
            #expect(harness.server.requestCount(for: "/a.png") == 0)
            #expect(await harness.cache.containsImage(forKey: harness.manager.cacheKey(for: request), scope: .disk) == .disk)
            #expect(await harness.cache.containsImage(forKey: url.absoluteString, scope: .all) == .none)
        }
    }
}
