import Foundation
import Glibc
import Testing

@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite("DiskCache")
struct DiskCacheTests {
    private let folder = TemporaryDirectory(prefix: "disk-cache")

    private func makeCache(
        maxAge: TimeInterval = 7 * 24 * 60 * 60,
        maxSize: Int = 0,
        expiryType: DiskCacheExpiryType = .accessDate,
        readOnly: [URL] = [],
        sidecars: Bool = false
    ) -> DiskCache {
        DiskCache(
            directory: folder.appending("entries"), maxAge: maxAge, maxSize: maxSize, expiryType: expiryType,
            readOnlyDirectories: readOnly, forcesSidecarMetadata: sidecars
        )
    }

    private func bytes(_ count: Int, _ seed: UInt8 = 7) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) })
    }

    /// Sets a file's access and modification dates to `age` seconds ago.
    private func age(_ path: String, by age: TimeInterval, access: Bool = true, modification: Bool = true) throws {
        var status = stat()
        try #require(stat(path, &status) == 0)
        let then = Int(Date().timeIntervalSince1970 - age)
        let atime = access ? then : status.st_atim.tv_sec
        let mtime = modification ? then : status.st_mtim.tv_sec
        var times = [timeval(tv_sec: atime, tv_usec: 0), timeval(tv_sec: mtime, tv_usec: 0)]
        try #require(utimes(path, &times) == 0)
    }

    private func names(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    // MARK: File names

    @Test(
        "names files by the key's MD5 plus the URL path's extension",
        arguments: [
            ("https://placehold.co/50x50.jpg", "jpg"),
            ("https://x/a.jpg?x=1", "jpg"),
            ("https://x/a8.jpg?aid=1&b=c.png#frag.gif", "jpg"),
            ("https://maps.googleapis.com/maps/api/staticmap?center=48.8,2.3&format=png&size=400x400", nil),
            ("https://x/jpg00%00", nil),
            ("https://x/image.jpg00%00", "jpg00"),
            ("https://example.com", nil),
            ("https://example.com/folder.v2/file", nil),
            ("photo.webp", "webp"),
            ("../../etc/passwd", nil),
            ("https://x/a.b%2F..%2F..%2Fetc", "etc"),
            ("https://x/a.p:n:g", "png"),
        ] as [(String, String?)])
    func fileNames(key: String, expectedExtension: String?) {
        let name = DiskCache.fileName(forKey: key)
        let hash = MD5.hexDigest(of: key)
        #expect(name == hash + (expectedExtension.map { "." + $0 } ?? ""))
        #expect(!name.contains("/"))
    }

    @Test("drops an extension longer than a file name allows")
    func longExtension() {
        let key = "https://x/a." + String(repeating: "e", count: 223)
        #expect(DiskCache.fileName(forKey: key) == MD5.hexDigest(of: key))
        let fits = "https://x/a." + String(repeating: "e", count: 222)
        #expect(DiskCache.fileName(forKey: fits).count == 255)
    }

    @Test("keeps every key inside the folder")
    func noEscape() throws {
        let cache = makeCache()
        for key in ["../../etc/passwd", "/etc/passwd", "..", "a/../../b.png", "https://x/..%2F..%2Fescape.png"] {
            try cache.store(bytes(10), forKey: key)
            #expect(URL(fileURLWithPath: cache.cachePath(forKey: key)).deletingLastPathComponent().path == cache.directory.path)
            #expect(cache.data(forKey: key) == bytes(10))
        }
        #expect(try names(in: folder.url) == ["entries"])
        #expect(try names(in: cache.directory).count == 5)
    }

    // MARK: Storing

    @Test("stores, replaces and removes entries atomically, leaving no temporary files")
    func storeAndRemove() throws {
        let cache = makeCache()
        try cache.store(bytes(100), forKey: "https://x/a.png")
        try cache.store(bytes(300, 9), forKey: "https://x/a.png")
        #expect(cache.data(forKey: "https://x/a.png") == bytes(300, 9))
        #expect(cache.containsData(forKey: "https://x/a.png"))
        #expect(try names(in: cache.directory) == [DiskCache.fileName(forKey: "https://x/a.png")])
        cache.removeData(forKey: "https://x/a.png")
        #expect(cache.data(forKey: "https://x/a.png") == nil)
        #expect(!cache.containsData(forKey: "https://x/a.png"))
        #expect(cache.totalCount() == 0)
    }

    @Test("deletes stale temporary files at open and keeps a live writer's")
    func leftoverTemporaryFiles() throws {
        let directory = folder.appending("entries")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let stale = directory.appendingPathComponent(".tmp-dead")
        let live = directory.appendingPathComponent(".tmp-live")
        try bytes(50).write(to: stale)
        try bytes(50).write(to: live)
        try age(stale.path, by: 3600)
        let cache = makeCache()
        cache.waitForMaintenance()
        #expect(try names(in: directory) == [".tmp-live"])
        #expect(cache.totalCount() == 0)
    }

    @Test("keeps metadata in an extended attribute, or in a sidecar", arguments: [false, true])
    func metadata(sidecars: Bool) throws {
        let cache = makeCache(sidecars: sidecars)
        let metadata = DiskCacheEntryMetadata(
            contentType: "image/png", entityTag: "\"abc\"", lastModified: "Wed, 21 Oct 2015 07:28:00 GMT",
            expirationDate: Date(timeIntervalSince1970: 1_700_000_000)
        )
        try cache.store(bytes(10), forKey: "k", metadata: metadata)
        #expect(cache.metadata(forKey: "k") == metadata)
        var updated = metadata
        updated.entityTag = "\"def\""
        try cache.setMetadata(updated, forKey: "k")
        #expect(cache.metadata(forKey: "k") == updated)
        try cache.store(bytes(12), forKey: "k")
        #expect(cache.metadata(forKey: "k") == nil)
        try cache.setMetadata(metadata, forKey: "k")
        cache.removeData(forKey: "k")
        #expect(cache.metadata(forKey: "k") == nil)
        #expect(throws: ImageError.self) { try cache.setMetadata(metadata, forKey: "k") }
        let sidecarFolder = cache.directory.appendingPathComponent(".metadata")
        #expect(FileManager.default.fileExists(atPath: sidecarFolder.path) == sidecars)
        if sidecars { #expect(try names(in: sidecarFolder).isEmpty) }
    }

    // MARK: Cleaning

    @Test("deletes entries older than maxAge by access date; reading an entry keeps it")
    func expiryByAccessDate() throws {
        let cache = makeCache(maxAge: 24 * 60 * 60)
        for key in ["old", "read", "fresh"] { try cache.store(bytes(10), forKey: key) }
        try age(cache.cachePath(forKey: "old"), by: 2 * 86_400)
        try age(cache.cachePath(forKey: "read"), by: 2 * 86_400)
        #expect(cache.data(forKey: "read") != nil)
        cache.removeExpiredData()
        #expect(cache.data(forKey: "old") == nil)
        #expect(cache.data(forKey: "read") != nil)
        #expect(cache.data(forKey: "fresh") != nil)
    }

    @Test("deletes entries older than maxAge by modification date, even when read")
    func expiryByModificationDate() throws {
        let cache = makeCache(maxAge: 24 * 60 * 60, expiryType: .modificationDate)
        for key in ["old", "fresh"] { try cache.store(bytes(10), forKey: key) }
        try age(cache.cachePath(forKey: "old"), by: 2 * 86_400, access: false)
        #expect(cache.data(forKey: "old") != nil)
        cache.removeExpiredData()
        #expect(cache.data(forKey: "old") == nil)
        #expect(cache.data(forKey: "fresh") != nil)
    }

    @Test("a negative maxAge never expires anything")
    func neverExpires() throws {
        let cache = makeCache(maxAge: -1)
        try cache.store(bytes(10), forKey: "ancient")
        try age(cache.cachePath(forKey: "ancient"), by: 10 * 365 * 86_400)
        cache.removeExpiredData()
        #expect(cache.data(forKey: "ancient") != nil)
    }

    @Test("trims the oldest entries until under half of maxSize")
    func trimToHalf() throws {
        let writer = makeCache()
        for index in 0..<10 {
            try writer.store(bytes(1_500), forKey: "entry-\(index)")
            try age(writer.cachePath(forKey: "entry-\(index)"), by: Double(100 - index))
        }
        writer.waitForMaintenance()
        let cache = makeCache(maxSize: 10_000)
        cache.removeExpiredData()
        let kept = (0..<10).filter { cache.data(forKey: "entry-\($0)") != nil }
        #expect(kept == [7, 8, 9])
        #expect(cache.totalSize() == 4_500)
        #expect(cache.trackedSize == 4_500)
    }

    @Test("holds the size limit continuously: a store past it trims in the background")
    func continuousSizeLimit() throws {
        let cache = makeCache(maxSize: 10_000)
        cache.waitForMaintenance()
        for index in 0..<25 {
            try cache.store(bytes(1_000), forKey: "entry-\(index)")
            try age(cache.cachePath(forKey: "entry-\(index)"), by: Double(100 - index))
        }
        cache.waitForMaintenance()
        #expect(cache.totalSize() <= 10_000)
        #expect(cache.trackedSize == cache.totalSize())
        #expect(cache.data(forKey: "entry-24") != nil)
        #expect(cache.data(forKey: "entry-0") == nil)
    }

    @Test("indexes an existing folder in the background and keeps the running total")
    func runningTotal() throws {
        let writer = makeCache()
        for index in 0..<300 { try writer.store(bytes(100 + index), forKey: "k\(index)") }
        let cache = makeCache()
        #expect(cache.data(forKey: "k7") == bytes(107))
        cache.waitForMaintenance()
        let expected = (0..<300).reduce(0) { $0 + 100 + $1 }
        #expect(cache.trackedSize == expected)
        try cache.store(bytes(1_000), forKey: "k0")
        cache.removeData(forKey: "k1")
        #expect(cache.trackedSize == expected + 1_000 - 100 - 101)
        #expect(cache.totalSize() == cache.trackedSize)
        #expect(cache.totalCount() == 299)
    }

    @Test("clears the folder at once and deletes the old files in the background")
    func removeAll() throws {
        let cache = makeCache()
        for index in 0..<20 { try cache.store(bytes(10), forKey: "k\(index)") }
        cache.removeAll()
        #expect(cache.totalCount() == 0)
        #expect(cache.data(forKey: "k3") == nil)
        try cache.store(bytes(10), forKey: "after")
        cache.waitForMaintenance()
        #expect(try names(in: folder.url) == ["entries"])
        #expect(cache.data(forKey: "after") != nil)
    }

    @Test("deletes at open a swapped-out folder its process did not live to delete")
    func abandonedTrash() throws {
        let trash = folder.appending(".entries-removed-1234")
        try FileManager.default.createDirectory(at: trash, withIntermediateDirectories: true)
        try bytes(10).write(to: trash.appendingPathComponent("0123"))
        let cache = makeCache()
        cache.waitForMaintenance()
        #expect(try names(in: folder.url) == ["entries"])
    }

    // MARK: Read-only folders

    @Test("reads pre-bundled files from read-only folders and never writes or deletes them")
    func readOnlyDirectories() throws {
        let bundled = folder.appending("bundled")
        try FileManager.default.createDirectory(at: bundled, withIntermediateDirectories: true)
        let bundledFile = bundled.appendingPathComponent(DiskCache.fileName(forKey: "https://x/logo.png"))
        try bytes(64).write(to: bundledFile)
        let cache = makeCache(maxAge: 0, readOnly: [bundled])
        #expect(cache.data(forKey: "https://x/logo.png") == bytes(64))
        #expect(cache.containsData(forKey: "https://x/logo.png"))
        #expect(cache.totalCount() == 0)
        try cache.store(bytes(8), forKey: "https://x/logo.png")
        #expect(cache.data(forKey: "https://x/logo.png") == bytes(8))
        cache.removeData(forKey: "https://x/logo.png")
        cache.removeExpiredData()
        cache.removeAll()
        cache.waitForMaintenance()
        #expect(cache.data(forKey: "https://x/logo.png") == bytes(64))
        #expect(try names(in: bundled) == [bundledFile.lastPathComponent])
    }
}
