import Foundation
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite("ImageCache extended data")
struct ImageCacheExtendedDataTests {
    private let folder = TemporaryDirectory(prefix: "extended-data")
    private let extra = Data([0, 1, 2, 250, 251, 255])

    private func makeCache() -> ImageCache {
        ImageCache(namespace: "extended", directory: folder.url, coders: RawTestCoder.manager())
    }

    @Test func bytesStoredWithAnEntryComeBackWithItFromMemoryAndDiskAndGoWithIt() async throws {
        let cache = makeCache()
        var metadata = DiskCacheEntryMetadata(entityTag: "\"e\"")
        metadata.extendedData = extra
        try await cache.store(RawTestCoder.image(width: 2, height: 2), forKey: "k", metadata: metadata)
        #expect(try await cache.image(forKey: "k")?.metadata?.extendedData == extra)
        #expect(await cache.extendedData(forKey: "k") == extra)

        let reopened = makeCache()
        let fromDisk = try #require(try await reopened.image(forKey: "k", scope: .disk))
        #expect(fromDisk.cacheType == .disk && fromDisk.metadata?.extendedData == extra)
        #expect(fromDisk.metadata?.entityTag == "\"e\"")

        await reopened.removeImage(forKey: "k")
        #expect(await reopened.extendedData(forKey: "k") == nil)
        #expect(await makeCache().extendedData(forKey: "k") == nil, "removed from disk with the entry")
    }

    @Test func bytesCanBeAttachedToAnEntryLaterAndDropped() async throws {
        let cache = makeCache()
        let bytes = try RawTestCoder().encode(RawTestCoder.image(width: 3, height: 1), as: .png, options: ImageEncodeOptions())
        try await cache.store(nil, data: bytes, forKey: "later", scope: .disk, metadata: DiskCacheEntryMetadata(lastModified: "x"))
        try await cache.setExtendedData(extra, forKey: "later")
        #expect(await makeCache().extendedData(forKey: "later") == extra)
        #expect(cache.diskStorage.data(forKey: "later") == bytes, "the entry's bytes are left alone")
        #expect(cache.diskStorage.metadata(forKey: "later")?.lastModified == "x", "and so is its other metadata")
        let image = try #require(try await cache.image(forKey: "later"))
        #expect(image.metadata?.extendedData == extra)
        try await cache.setExtendedData(nil, forKey: "later")
        #expect(await makeCache().extendedData(forKey: "later") == nil)
        #expect(await cache.extendedData(forKey: "later") == nil, "dropped from the memory entry too")
        await #expect(throws: ImageError.self) { try await cache.setExtendedData(extra, forKey: "missing") }
    }

    @Test func aRevalidationKeepsTheBytes() throws {
        var metadata = DiskCacheEntryMetadata(entityTag: "\"e\"")
        metadata.extendedData = extra
        let url = try #require(URL(string: "https://example.com/a.png"))
        let refreshed = metadata.refreshed(by: DownloadResponseHead(statusCode: 304, url: url))
        #expect(refreshed.extendedData == extra && refreshed.entityTag == "\"e\"")
    }

    @Test func sidecarMetadataKeepsAndRemovesTheBytesToo() throws {
        let disk = DiskCache(
            directory: folder.appending("sidecars"), maxAge: -1, maxSize: 0, expiryType: .accessDate,
            readOnlyDirectories: [], forcesSidecarMetadata: true)
        var metadata = DiskCacheEntryMetadata()
        metadata.extendedData = extra
        try disk.store(Data([1, 2, 3]), forKey: "k", metadata: metadata)
        let sidecar = folder.appending("sidecars/.metadata/" + DiskCache.fileName(forKey: "k")).path
        #expect(FileManager.default.fileExists(atPath: sidecar))
        #expect(disk.metadata(forKey: "k")?.extendedData == extra)
        disk.removeData(forKey: "k")
        #expect(!FileManager.default.fileExists(atPath: sidecar))
        #expect(disk.metadata(forKey: "k") == nil)
    }
}
