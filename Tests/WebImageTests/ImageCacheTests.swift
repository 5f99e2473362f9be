import Foundation
import NIOConcurrencyHelpers
import Testing

@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite("ImageCache")
struct ImageCacheTests {
    private let folder = TemporaryDirectory(prefix: "image-cache")

    private func makeCache(_ configure: (inout ImageCacheConfiguration) -> Void = { _ in }) -> ImageCache {
        var configuration = ImageCacheConfiguration()
        configure(&configuration)
        return ImageCache(namespace: "test", directory: folder.url, configuration: configuration, coders: RawTestCoder.manager())
    }

    private func encoded(_ image: Image) throws -> Data {
        try RawTestCoder().encode(image, as: .png, options: ImageEncodeOptions())
    }

    @Test("uses SDWebImage's defaults, with a bounded memory cache")
    func defaults() {
        let configuration = ImageCacheConfiguration()
        #expect(configuration.shouldCacheImagesInMemory)
        #expect(configuration.maxDiskAge == 604_800)
        #expect(configuration.maxDiskSize == 0 && configuration.maxMemoryCount == 0)
        #expect(configuration.maxMemoryCost == ProcessMemory.defaultMemoryCacheLimit)
        #expect(configuration.maxMemoryCost > 0 && configuration.maxMemoryCost <= 768 << 20)
        #expect(configuration.diskCacheExpiryType == .accessDate)
        #expect(ImageCacheConfiguration.defaultDiskCacheDirectory.lastPathComponent == "SwiftWebImage")
        #expect(ImageCache(directory: folder.url).diskStorage.directory.lastPathComponent == "default")
    }

    @Test("answers a memory hit synchronously with the same image")
    func memoryHit() throws {
        let cache = makeCache()
        let image = RawTestCoder.image(width: 4, height: 3)
        cache.store(image, forKey: "k", scope: .memory)
        let answer = NIOLockedValueBox<ImageCacheResult?>(nil)
        let query = cache.queryImage(forKey: "k") { result in answer.withLockedValue { $0 = try? result.get() } }
        #expect(query == nil)
        let result = try #require(answer.withLockedValue { $0 })
        #expect(result.image === image)
        #expect(result.cacheType == .memory)
        #expect(result.data == nil)
        #expect(cache.diskStorage.measure().count == 0)
    }

    @Test("a query scoped to disk decodes the disk's bytes, never the memory entry")
    func diskScopeSkipsMemory() async throws {
        let cache = makeCache()
        let inMemory = RawTestCoder.image(width: 4, height: 3)
        try await cache.store(inMemory, forKey: "k", scope: .memory)
        try cache.diskStorage.store(try encoded(RawTestCoder.image(width: 7, height: 5)), forKey: "k", metadata: nil)
        var memoryEntry = inMemory
        for _ in 0..<2 {
            // The second round finds the disk image promoted into memory, and still decodes.
            let fromDisk = try #require(try await cache.image(forKey: "k", scope: .disk))
            #expect(fromDisk.cacheType == .disk && fromDisk.image.pixelSize == PixelSize(width: 7, height: 5))
            #expect(fromDisk.image !== memoryEntry)
            memoryEntry = try #require(cache.imageFromMemory(forKey: "k"))
        }
        // Awaited, not waited on with a semaphore: the answer may need a thread of the
        // cooperative pool this test runs on.
        let delivered = await withCheckedContinuation { (continuation: CheckedContinuation<ImageCacheResult?, Never>) in
            cache.queryImage(forKey: "k", scope: .disk) { result in continuation.resume(returning: try? result.get()) }
        }
        let callbackResult = try #require(delivered)
        #expect(callbackResult.cacheType == .disk && callbackResult.image !== memoryEntry)
        #expect(try await cache.image(forKey: "k")?.cacheType == .memory)
    }

    @Test("encodes an image stored without bytes, decodes it from disk and promotes it")
    func diskRoundTrip() async throws {
        let cache = makeCache()
        let image = RawTestCoder.image(width: 5, height: 2)
        try await cache.store(image, forKey: "https://x/photo.png")
        let file = try Data(contentsOf: URL(fileURLWithPath: try #require(cache.cachePath(forKey: "https://x/photo.png"))))
        #expect(file.starts(with: RawTestCoder.magic))
        cache.clearMemory()
        #expect(cache.imageFromMemory(forKey: "https://x/photo.png") == nil)
        let result = try #require(try await cache.image(forKey: "https://x/photo.png"))
        #expect(result.cacheType == .disk)
        #expect(result.data == file)
        #expect(result.image.pixelSize == PixelSize(width: 5, height: 2))
        #expect(result.image.bitmap.rgba8(x: 4, y: 1) == RGBA8(red: 4, green: 1, blue: 0, alpha: 255))
        let promoted = try #require(cache.imageFromMemory(forKey: "https://x/photo.png"))
        #expect(promoted === result.image)
    }

    @Test("stores original bytes as given and honours the scope of stores and queries")
    func scopes() async throws {
        let cache = makeCache()
        let image = RawTestCoder.image(width: 2, height: 2)
        let bytes = try encoded(RawTestCoder.image(width: 3, height: 1))
        try await cache.store(image, data: bytes, forKey: "both")
        #expect(try Data(contentsOf: URL(fileURLWithPath: try #require(cache.cachePath(forKey: "both")))) == bytes)
        try await cache.store(image, forKey: "memory-only", scope: .memory)
        try await cache.store(image, forKey: "disk-only", scope: .disk)
        #expect(cache.imageFromMemory(forKey: "disk-only") == nil)
        #expect(await cache.diskImageExists(forKey: "memory-only") == false)
        #expect(try await cache.image(forKey: "disk-only", scope: .memory) == nil)
        #expect(try await cache.image(forKey: "memory-only", scope: .disk) == nil)
        #expect(try await cache.image(forKey: "both", scope: .none) == nil)
        let fromDisk = try #require(try await cache.image(forKey: "disk-only", scope: .disk))
        #expect(fromDisk.cacheType == .disk)
    }

    @Test("keeps an animated image's bytes in memory and can give its first frame only")
    func animatedMemoryHit() async throws {
        let cache = makeCache()
        let animation = RawTestCoder.image(width: 2, height: 2, frameCount: 3)
        let bytes = try encoded(animation)
        try await cache.store(animation, data: bytes, forKey: "anim", scope: .memory)
        let hit = try #require(try await cache.image(forKey: "anim"))
        #expect(hit.data == bytes)
        #expect(hit.image.frames.count == 3)
        let still = try #require(try await cache.image(forKey: "anim", decodeOptions: ImageDecodeOptions(firstFrameOnly: true)))
        #expect(still.image.frames.count == 1)
        #expect(still.image.bitmap == animation.bitmap)
        #expect(cache.layeredMemoryCache.totalCost == animation.memoryCost + bytes.count)
    }

    @Test("gives a disk hit the scale its key names, and does not promote a thumbnail")
    func scaleAndThumbnails() async throws {
        let cache = makeCache()
        let bytes = try encoded(RawTestCoder.image(width: 4, height: 4))
        try await cache.store(nil, data: bytes, forKey: "https://x/icon@2x.png")
        let hit = try #require(try await cache.image(forKey: "https://x/icon@2x.png"))
        #expect(hit.image.scale == 2)
        try await cache.store(nil, data: bytes, forKey: "thumb")
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 2, height: 2))
        _ = try #require(try await cache.image(forKey: "thumb", decodeOptions: options))
        #expect(cache.imageFromMemory(forKey: "thumb") == nil)
    }

    @Test("answers a miss, or undecodable bytes, with nil")
    func misses() async throws {
        let cache = makeCache()
        #expect(try await cache.image(forKey: "absent") == nil)
        try await cache.store(nil, data: Data("not an image".utf8), forKey: "junk")
        #expect(await cache.diskImageExists(forKey: "junk"))
        #expect(try await cache.image(forKey: "junk") == nil)
        #expect(cache.imageFromDisk(forKey: "junk") == nil)
    }

    @Test("a cancelled query answers cancelled once, before cancel returns")
    func cancelledQuery() async throws {
        let cache = makeCache()
        try cache.diskStorage.store(try encoded(RawTestCoder.image(width: 1, height: 1)), forKey: "k", metadata: nil)
        let callbackQueue = DispatchQueue(label: "test.callbacks")
        let answers = NIOLockedValueBox<[Result<ImageCacheResult?, ImageError>]>([])
        let gate = DispatchSemaphore(value: 0)
        cache.ioQueue.async { gate.wait() }
        let query = try #require(
            cache.queryImage(forKey: "k", callbackQueue: callbackQueue) { result in
                answers.withLockedValue { $0.append(result) }
            })
        #expect(answers.withLockedValue { $0.isEmpty })
        query.cancel()
        #expect(query.isCancelled)
        // Synchronously, on this thread, while the I/O queue is still held.
        #expect(answers.withLockedValue { $0.map { (try? $0.get()) == nil } } == [true])
        #expect(throws: ImageError(.cancelled, "the cache query was cancelled")) { try answers.withLockedValue { $0[0] }.get() }
        query.cancel()
        gate.signal()
        cache.ioQueue.sync {}
        callbackQueue.sync {}
        #expect(answers.withLockedValue { $0.count } == 1, "no second answer, from the disk or a second cancel")
        #expect(cache.imageFromMemory(forKey: "k") == nil)

        // The hit is read on the I/O queue and decoded on a decoding thread: await the answer
        // (a semaphore would hold a thread of the cooperative pool the answer may need).
        let second = NIOLockedValueBox<ImageCacheQuery?>(nil)
        let delivered = await withCheckedContinuation { (continuation: CheckedContinuation<ImageCacheResult?, Never>) in
            let query = cache.queryImage(forKey: "k", callbackQueue: callbackQueue) { result in
                continuation.resume(returning: try? result.get())
            }
            second.withLockedValue { $0 = query }
        }
        let answeredQuery = second.withLockedValue { $0 }
        answeredQuery?.cancel()
        callbackQueue.sync {}
        #expect(answeredQuery?.isCancelled == false, "cancelling an answered query does nothing")
        #expect(delivered?.cacheType == .disk)
    }

    @Test("cancelling the task of an async query throws cancelled")
    func cancelledAsyncQuery() async throws {
        let cache = makeCache()
        try cache.diskStorage.store(try encoded(RawTestCoder.image(width: 1, height: 1)), forKey: "k", metadata: nil)
        let gate = DispatchSemaphore(value: 0)
        cache.ioQueue.async { gate.wait() }
        let task = Task { try await cache.image(forKey: "k") }
        task.cancel()
        let outcome = await task.result
        gate.signal()
        #expect(throws: ImageError(.cancelled, "the cache query was cancelled")) { try outcome.get() }
    }

    @Test("removes, clears and counts")
    func maintenance() async throws {
        let cache = makeCache()
        let bytes = try encoded(RawTestCoder.image(width: 2, height: 2))
        for index in 0..<4 {
            try await cache.store(RawTestCoder.image(width: 2, height: 2), data: bytes, forKey: "k\(index)")
        }
        #expect(await cache.totalDiskCount() == 4)
        #expect(await cache.totalDiskSize() == 4 * bytes.count)
        await cache.removeImage(forKey: "k0")
        #expect(cache.imageFromMemory(forKey: "k0") == nil)
        #expect(await cache.diskImageExists(forKey: "k0") == false)
        await cache.removeImage(forKey: "k1", scope: .memory)
        #expect(await cache.diskImageExists(forKey: "k1"))
        cache.clearMemory()
        #expect(cache.imageFromMemory(forKey: "k2") == nil)
        await cache.clearDisk()
        #expect(await cache.totalDiskCount() == 0)
        #expect(try #require(cache.cachePath(forKey: "k1")).hasPrefix(folder.url.appendingPathComponent("test").path + "/"))
    }

    @Test("deleteOldFiles cleans the disk as in SDWebImage")
    func deleteOldFiles() async throws {
        let cache = makeCache { $0.maxDiskAge = 0 }
        try await cache.store(nil, data: Data([1, 2, 3]), forKey: "k")
        await cache.deleteOldFiles()
        #expect(await cache.totalDiskCount() == 0)
    }

    @Test("keeps disk metadata with a store")
    func metadata() async throws {
        let cache = makeCache()
        let metadata = DiskCacheEntryMetadata(contentType: "image/png", entityTag: "\"v1\"")
        try await cache.store(nil, data: Data([1]), forKey: "k", metadata: metadata)
        #expect(cache.diskStorage.metadata(forKey: "k") == metadata)
    }

    @Test("respects the memory limits and the switch for memory caching")
    func memoryConfiguration() async throws {
        let limited = makeCache { $0.maxMemoryCount = 2 }
        for index in 0..<3 {
            try await limited.store(RawTestCoder.image(width: 1, height: 1), forKey: "k\(index)", scope: .memory)
        }
        #expect(limited.imageFromMemory(forKey: "k0") == nil)
        #expect(limited.imageFromMemory(forKey: "k2") != nil)
        let diskOnly = makeCache { $0.shouldCacheImagesInMemory = false }
        try await diskOnly.store(RawTestCoder.image(width: 1, height: 1), forKey: "k")
        #expect(diskOnly.imageFromMemory(forKey: "k") == nil)
        #expect(try await diskOnly.image(forKey: "k")?.cacheType == .disk)
        #expect(diskOnly.imageFromMemory(forKey: "k") == nil)
    }

    @Test("reports an image no coder can encode")
    func encodingFailure() async {
        let cache = ImageCache(namespace: "none", directory: folder.url, coders: ImageCodersManager(coders: []))
        await #expect(throws: ImageError.self) {
            try await cache.store(RawTestCoder.image(width: 1, height: 1), forKey: "k", scope: .disk)
        }
        #expect(await cache.totalDiskCount() == 0)
    }
}
