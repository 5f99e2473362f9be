import Foundation
import LoopbackHTTPServer
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite("ImageDiskStorage", .timeLimit(.minutes(15)))
struct ImageDiskStorageTests {
    @Test func theBuiltInDiskLevelIsADiskCacheInTheNamespaceFolder() {
        let folder = TemporaryDirectory(prefix: "disk-storage")
        let cache = ImageCache(namespace: "built-in", directory: folder.url)
        #expect(ImageCacheConfiguration().diskStorageType == nil)
        #expect(cache.diskCache != nil && cache.diskStorage is DiskCache)
        #expect(cache.diskStorage.directory.path == folder.appending("built-in").standardizedFileURL.path)
    }

    @Test func aCustomDiskStorageReceivesEveryStoreAndAnswersQueries() async throws {
        try await ManagerTestHarness.run { harness in
            let bytes = try ManagerTestImage.png(width: 8, height: 6)
            harness.serve("/a.png", bytes, headers: [("Content-Type", "image/png"), ("ETag", "\"v1\"")])
            var configuration = ImageCacheConfiguration()
            configuration.diskStorageType = ImageDiskStorageType(RecordingDiskStorage.self)
            let cache = ImageCache(namespace: "custom", directory: harness.folder.url, configuration: configuration)
            let storage = try #require(cache.diskStorage as? RecordingDiskStorage)
            #expect(cache.diskCache == nil && cache.cachePath(forKey: "k") == nil)
            #expect(storage.directory.lastPathComponent == "custom")
            #expect(!FileManager.default.fileExists(atPath: harness.folder.appending("custom").path), "no folder for it")

            let manager = ImageManager(cache: cache, loader: harness.downloader)
            let url = harness.url("/a.png")
            #expect(try await harness.load(url, with: manager).cacheType == .none)
            let thumbnail = ImageRequest(url: url, thumbnailPixelSize: PixelSize(width: 4, height: 4))
            #expect(try await harness.load(thumbnail, with: manager).cacheType == .disk, "answered from the original there")
            #expect(storage.stores == [url.absoluteString, manager.cacheKey(for: thumbnail)])
            #expect(storage.data(forKey: url.absoluteString) == bytes)
            #expect(storage.metadata(forKey: url.absoluteString)?.entityTag == "\"v1\"")

            cache.clearMemory()
            let fromStorage = try await harness.load(url, with: manager)
            #expect(fromStorage.cacheType == .disk && fromStorage.data == bytes)
            #expect(await cache.totalDiskCount() == 2)
            #expect(harness.server.requestCount(for: "/a.png") == 1)

            await cache.removeImage(forKey: url.absoluteString)
            #expect(storage.removals == [url.absoluteString])
            #expect(await cache.diskImageExists(forKey: url.absoluteString) == false)
            await cache.clearDisk()
            #expect(storage.removedAll == 1 && storage.measure().count == 0)
            await #expect(throws: ImageError.self) { try await cache.migrateDiskCache(from: harness.folder.appending("old")) }
        }
    }
}
