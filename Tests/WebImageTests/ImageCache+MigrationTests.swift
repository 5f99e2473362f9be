import Foundation
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite("ImageCache migration")
struct ImageCacheMigrationTests {
    private let folder = TemporaryDirectory(prefix: "migration")

    private func encoded(width: Int) throws -> Data {
        try RawTestCoder().encode(RawTestCoder.image(width: width, height: 1), as: .png, options: ImageEncodeOptions())
    }

    @Test func entriesOfAnOldFolderMoveInWithoutOverwritingNewerOnes() async throws {
        let oldFolder = folder.appending("old-layout/default")
        let old = DiskCache(directory: oldFolder, maxAge: -1)
        // One entry's metadata in a sidecar file (a file system without extended attributes).
        let oldWithSidecars = DiskCache(
            directory: oldFolder, maxAge: -1, maxSize: 0, expiryType: .accessDate, readOnlyDirectories: [],
            forcesSidecarMetadata: true)
        var metadata = DiskCacheEntryMetadata(entityTag: "\"a\"")
        metadata.extendedData = Data([7, 7])
        try oldWithSidecars.store(try encoded(width: 1), forKey: "a", metadata: metadata)
        try old.store(try encoded(width: 2), forKey: "b")
        try old.store(try encoded(width: 3), forKey: "c", metadata: DiskCacheEntryMetadata(entityTag: "\"c\""))
        old.waitForMaintenance()
        let oldModificationDate = try FileManager.default.attributesOfItem(atPath: old.cachePath(forKey: "c"))[.modificationDate] as? Date

        let cache = ImageCache(namespace: "current", directory: folder.url, coders: RawTestCoder.manager())
        let newer = try encoded(width: 9)
        try await cache.store(nil, data: newer, forKey: "b", scope: .disk)
        await cache.waitForDiskMaintenance()  // the scan at opening is done: the total is exact

        #expect(try await cache.migrateDiskCache(from: oldFolder) == 2)
        #expect(!FileManager.default.fileExists(atPath: oldFolder.path), "the old folder is gone")
        #expect(await cache.totalDiskCount() == 3)
        #expect(try await cache.image(forKey: "a", scope: .disk)?.image.pixelSize == PixelSize(width: 1, height: 1))
        #expect(try await cache.image(forKey: "c", scope: .disk)?.image.pixelSize == PixelSize(width: 3, height: 1))
        #expect(cache.diskStorage.data(forKey: "b") == newer, "the newer entry stays")
        let moved = try #require(cache.diskStorage.metadata(forKey: "a"))
        #expect(moved.entityTag == "\"a\"" && moved.extendedData == Data([7, 7]), "metadata moves with the entry")
        #expect(cache.diskStorage.metadata(forKey: "c")?.entityTag == "\"c\"", "extended attributes move too")
        let movedDate = try FileManager.default.attributesOfItem(atPath: try #require(cache.cachePath(forKey: "c")))[.modificationDate] as? Date
        #expect(movedDate == oldModificationDate, "dates move too, for expiry and trimming")
        await cache.waitForDiskMaintenance()
        #expect(cache.diskCache?.trackedSize == cache.diskStorage.measure().size, "the running total counts them")

        #expect(try await cache.migrateDiskCache(from: oldFolder) == 0, "nothing left to move")
        #expect(try await cache.migrateDiskCache(from: cache.diskStorage.directory) == 0, "its own folder is not moved")
    }
}
