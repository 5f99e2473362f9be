import Foundation
import LoopbackHTTPServer
import NIOConcurrencyHelpers
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite("ImageManager", .timeLimit(.minutes(15)))
struct ImageManagerTests {
    // MARK: URLs and keys

    @Test func aURLGivenAsAStringLoads() async throws {
        try await ManagerTestHarness.run { harness in
            harness.serve("/a.png", try ManagerTestImage.png(tint: 3))
            let response = try await harness.load(ImageRequest(string: harness.url("/a.png").absoluteString))
            let image = try #require(response.image)
            #expect(image.bitmap.pixels == ManagerTestImage.bitmap(width: 8, height: 6, tint: 3).pixels)
            #expect(response.url == harness.url("/a.png"))
            #expect(harness.server.requestCount(for: "/a.png") == 1)
        }
    }

    @Test func emptyAndInvalidURLsFailAtOnce() async throws {
        try await ManagerTestHarness.run { harness in
            let loader = CountingImageLoader(harness.downloader)
            let manager = harness.makeManager(loader: loader)
            for request in [ImageRequest(url: nil), ImageRequest(string: "")] {
                let response = try await harness.load(request, with: manager)
                #expect(response.error?.code == .invalidURL)
                #expect(response.image == nil && response.isFinished)
                let error = await capturedError { () async throws(ImageError) in try await manager.image(for: request) }
                #expect(error?.code == .invalidURL)
            }
            #expect(loader.loadCount == 0, "no URL, no load")
            let unsupported = try await harness.load(ImageRequest(string: "ftp://127.0.0.1/a.png"), with: manager)
            #expect(unsupported.error?.code == .invalidURL)
            #expect(harness.server.requests.isEmpty)
        }
    }

    @Test func cacheKeysFollowTheFilterThumbnailAndTransformer() throws {
        let folder = TemporaryDirectory()
        let manager = ImageManager(cache: ImageCache(directory: folder.url), loader: ImageLoadersManager(loaders: []))
        let url = try #require(URL(string: "http://example.com/photos/cat.png?size=big"))
        #expect(manager.cacheKey(for: url) == url.absoluteString)
        #expect(manager.cacheKey(for: nil as URL?) == "")
        #expect(manager.cacheKey(for: ImageRequest(url: nil)) == "")

        let plain = ImageRequest(url: url)
        let thumbnail = ImageRequest(url: url, thumbnailPixelSize: PixelSize(width: 10, height: 10))
        let resize = ResizingImageTransformer(size: PixelSize(width: 10, height: 10))
        let transformed = ImageRequest(url: url, transformer: resize)
        let keys = [plain, thumbnail, transformed].map(manager.cacheKey(for:))
        #expect(keys[0] == url.absoluteString)
        #expect(Set(keys).count == 3)
        #expect(keys[2] == resize.transformedKey(for: url.absoluteString))
        #expect(keys[2].hasPrefix("http://example.com/photos/cat-") && keys[2].hasSuffix(".png?size=big"))

        manager.cacheKeyFilter = { $0.path }
        #expect(manager.cacheKey(for: url) == "/photos/cat.png")
        #expect(manager.cacheKey(for: plain) == "/photos/cat.png")
        let ownFilter = ImageRequest(url: url, cacheKeyFilter: { $0.lastPathComponent })
        #expect(manager.cacheKey(for: ownFilter) == "cat.png", "the request's filter overrides the manager's")
    }

    @Test func aCacheKeyFilterLetsURLsShareAnEntry() async throws {
        try await ManagerTestHarness.run { harness in
            harness.serve("/shared.png", try ManagerTestImage.png(tint: 5))
            harness.manager.cacheKeyFilter = { $0.path }
            let first = try await harness.load(harness.url("/shared.png?token=1"))
            #expect(first.cacheType == .none && first.image != nil)
            #expect(await harness.cache.diskImageExists(forKey: "/shared.png"))
            let second = try await harness.load(harness.url("/shared.png?token=2"))
            #expect(second.cacheType == .memory)
            #expect(second.image === first.image)
            #expect(harness.server.requestCount(for: "/shared.png") == 1)
        }
    }

    // MARK: Where answers come from

    @Test func aDownloadIsStoredAndAnsweredWithCacheTypeNone() async throws {
        try await ManagerTestHarness.run { harness in
            let bytes = try ManagerTestImage.png(tint: 1)
            harness.serve("/a.png", bytes)
            let url = harness.url("/a.png")
            let response = try await harness.load(url)
            #expect(response.cacheType == .none && response.isFinished && response.error == nil)
            #expect(response.data == bytes)
            #expect(response.image?.bitmap.pixels == ManagerTestImage.bitmap(width: 8, height: 6, tint: 1).pixels)
            #expect(harness.cache.imageFromMemory(forKey: url.absoluteString) === response.image)
            #expect(harness.cache.diskStorage.data(forKey: url.absoluteString) == bytes)
            #expect(await harness.manager.diskImageExists(for: url))
            #expect(await harness.manager.cachedImageExists(for: url))
        }
    }

    @Test func aMemoryHitCompletesBeforeLoadImageReturns() async throws {
        try await ManagerTestHarness.run { harness in
            harness.serve("/a.png", try ManagerTestImage.png())
            let url = harness.url("/a.png")
            let downloaded = try await harness.load(url)
            let recorder = ImageResponseRecorder()
            let operation = harness.manager.loadImage(with: url, completion: recorder.record)
            #expect(recorder.count == 1, "the completion ran inside loadImage")
            #expect(recorder.responses.first?.cacheType == .memory)
            #expect(recorder.responses.first?.image === downloaded.image)
            #expect(operation.isFinished && !harness.manager.isRunning)
            #expect(harness.server.requestCount(for: "/a.png") == 1)
        }
    }

    @Test func aDiskHitIsPromotedToMemory() async throws {
        try await ManagerTestHarness.run { harness in
            harness.serve("/a.png", try ManagerTestImage.png(tint: 2))
            let url = harness.url("/a.png")
            _ = try await harness.load(url)
            harness.cache.clearMemory()
            let fromDisk = try await harness.load(url)
            #expect(fromDisk.cacheType == .disk)
            #expect(fromDisk.image?.bitmap.pixels == ManagerTestImage.bitmap(width: 8, height: 6, tint: 2).pixels)
            #expect(harness.cache.imageFromMemory(forKey: url.absoluteString) === fromDisk.image)
            let fromMemory = try await harness.load(url)
            #expect(fromMemory.cacheType == .memory && fromMemory.image === fromDisk.image)
            #expect(harness.server.requestCount(for: "/a.png") == 1)
        }
    }

    @Test func aSecondManagerOnTheSameFolderGetsADiskHit() async throws {
        try await ManagerTestHarness.run { harness in
            harness.serve("/a.jpg", try ManagerTestImage.jpeg(width: 16, height: 16), headers: [("Content-Type", "image/jpeg")])
            let url = harness.url("/a.jpg")
            let first = try await harness.load(url)
            #expect(first.cacheType == .none && first.image?.format == .jpeg)
            let second = try await harness.load(url, with: harness.makeManager())
            #expect(second.cacheType == .disk)
            #expect(second.image?.bitmap == first.image?.bitmap)
            #expect(harness.server.requestCount(for: "/a.jpg") == 1)
        }
    }

    // MARK: Download decisions

    @Test func shouldDownloadFalseEndsWithNoImageAndNoError() async throws {
        try await ManagerTestHarness.run { harness in
            harness.serve("/a.png", try ManagerTestImage.png())
            harness.serve("/b.png", try ManagerTestImage.png())
            let asked = DownloadCallbackRecorder<URL>()
            harness.manager.shouldDownload = { url in
                asked.append(url)
                return url.path != "/a.png"
            }
            let refused = try await harness.load(harness.url("/a.png"))
            #expect(refused.image == nil && refused.error == nil && refused.isFinished && refused.cacheType == .none)
            let viaAsync = try await harness.manager.image(from: harness.url("/a.png"))
            #expect(viaAsync.image == nil)
            #expect(harness.server.requestCount(for: "/a.png") == 0)

            _ = try await harness.load(harness.url("/b.png"))
            let hit = try await harness.load(harness.url("/b.png"))
            #expect(hit.cacheType == .memory)
            harness.cache.clearMemory()
            #expect(try await harness.load(harness.url("/b.png")).cacheType == .disk)
            #expect(asked.values.map(\.path) == ["/a.png", "/a.png", "/b.png"], "a cache hit does not ask")
        }
    }

    @Test func fromCacheOnlyAndFromLoaderOnly() async throws {
        try await ManagerTestHarness.run { harness in
            harness.serve("/a.png", try ManagerTestImage.png())
            let url = harness.url("/a.png")
            let miss = try await harness.load(url, options: .fromCacheOnly)
            #expect(miss.error?.code == .notFound && miss.image == nil)
            #expect(harness.server.requestCount(for: "/a.png") == 0)

            _ = try await harness.load(url)
            #expect(try await harness.load(url, options: .fromCacheOnly).cacheType == .memory)
            let reloaded = try await harness.load(url, options: .fromLoaderOnly)
            #expect(reloaded.cacheType == .none && reloaded.image != nil)
            #expect(harness.server.requestCount(for: "/a.png") == 2)
        }
    }

    // MARK: Storing

    @Test func cacheMemoryOnlyLeavesNothingOnDisk() async throws {
        try await ManagerTestHarness.run { harness in
            harness.serve("/a.png", try ManagerTestImage.png())
            let url = harness.url("/a.png")
            let response = try await harness.load(url, options: .cacheMemoryOnly)
            #expect(response.image != nil)
            #expect(harness.cache.imageFromMemory(forKey: url.absoluteString) === response.image)
            #expect(await !harness.cache.diskImageExists(forKey: url.absoluteString))
            #expect(await harness.cache.totalDiskCount() == 0)
            #expect(try await harness.load(url, with: harness.makeManager()).cacheType == .none)
        }
    }

    @Test func progressiveLoadsDeliverPartialsThatAreNeverStored() async throws {
        try await ManagerTestHarness.run { harness in
            let bytes = Array(try ManagerTestImage.noisePNG())
            let gate = LoopbackGate()
            harness.server.route("/p.png") { _, response in
                await response.writeHead(status: 200, headers: [("Content-Type", "image/png"), ("Content-Length", "\(bytes.count)")])
                await response.writeBody(bytes[..<(bytes.count / 2)])
                await gate.wait()
                await response.writeBody(bytes[(bytes.count / 2)...])
                await response.end()
            }
            let url = harness.url("/p.png")
            let recorder = ImageResponseRecorder()
            harness.manager.loadImage(with: url, options: .progressiveDownload, completion: recorder.record)
            try await recorder.wait(for: 1)
            let partial = recorder.responses[0]
            #expect(!partial.isFinished && partial.error == nil)
            #expect(partial.image?.pixelSize == PixelSize(width: 64, height: 64))
            #expect(partial.image?.bitmap.rgba8(x: 0, y: 63).alpha == 0, "the last row has not arrived")
            #expect(harness.cache.imageFromMemory(forKey: url.absoluteString) == nil)
            #expect(await !harness.cache.diskImageExists(forKey: url.absoluteString))
            gate.open()
            try await recorder.waitForFinishedResponse()
            let responses = recorder.responses
            #expect(responses.count >= 2)
            #expect(responses.dropLast().allSatisfy { !$0.isFinished })
            let final = try #require(responses.last)
            #expect(final.isFinished && final.cacheType == .none)
            #expect(try final.image?.bitmap == ImageCodersManager.shared.decode(Data(bytes)).bitmap)
            #expect(harness.cache.imageFromMemory(forKey: url.absoluteString) === final.image)
            #expect(harness.cache.diskStorage.data(forKey: url.absoluteString) == Data(bytes))
        }
    }

    // MARK: Many callers

    @Test func aThousandLoadsOfTenURLsMakeTenRequests() async throws {
        try await ManagerTestHarness.run { harness in
            let gate = LoopbackGate()
            for index in 0..<10 {
                harness.serve("/\(index).png", try ManagerTestImage.png(tint: UInt8(index)), after: gate)
            }
            let loader = CountingImageLoader(harness.downloader)
            let manager = harness.makeManager(loader: loader)
            let recorder = ImageResponseRecorder()
            for index in 0..<1000 {
                manager.loadImage(with: harness.url("/\(index % 10).png"), completion: recorder.record)
            }
            try await loader.wait(forLoads: 1000)
            gate.open()
            try await recorder.wait(for: 1000)
            #expect(harness.server.requests.count == 10)
            for index in 0..<10 {
                #expect(harness.server.requestCount(for: "/\(index).png") == 1)
            }
            let responses = recorder.responses
            #expect(responses.count == 1000)
            #expect(responses.allSatisfy { $0.error == nil && $0.cacheType == .none })
            for index in 0..<10 {
                let images = responses.filter { $0.url?.path == "/\(index).png" }.compactMap(\.image)
                #expect(images.count == 100)
                #expect(Set(images.map(ObjectIdentifier.init)).count == 1)
                #expect(images.first?.bitmap.rgba8(x: 0, y: 0).blue == UInt8(index))
            }
            #expect(!manager.isRunning)
        }
    }

    @Test func theLastCompletionRunsAfterTheLoadLeftTheRunningSet() async throws {
        try await ManagerTestHarness.run { harness in
            let gate = LoopbackGate()
            harness.serve("/a.png", try ManagerTestImage.png(), after: gate)
            let manager = harness.manager
            let runningDuringCompletion = DownloadCallbackRecorder<Bool>()
            let recorder = ImageResponseRecorder()
            manager.loadImage(with: harness.url("/a.png")) { response in
                runningDuringCompletion.append(manager.isRunning)
                recorder.record(response)
            }
            #expect(manager.isRunning)
            gate.open()
            try await recorder.wait(for: 1)
            #expect(runningDuringCompletion.values == [false])
        }
    }

    @Test func cancelAllStopsEveryRunningLoad() async throws {
        try await ManagerTestHarness.run { harness in
            let gate = LoopbackGate()
            for path in ["/a.png", "/b.png", "/c.png", "/sentinel.png"] {
                harness.serve(path, try ManagerTestImage.png(), after: path == "/sentinel.png" ? nil : gate)
            }
            let cancelled = ImageResponseRecorder()
            #expect(!harness.manager.isRunning)
            let operations = ["/a.png", "/b.png", "/c.png"].map { path in
                harness.manager.loadImage(with: harness.url(path), completion: cancelled.record)
            }
            #expect(harness.manager.isRunning)
            #expect(harness.manager.runningOperations.count == 3)
            for path in ["/a.png", "/b.png", "/c.png"] {
                try await harness.server.waitForRequests(to: path)
            }
            harness.manager.cancelAll()
            #expect(!harness.manager.isRunning)
            #expect(operations.allSatisfy { $0.isCancelled && $0.isFinished })
            try await harness.server.waitForConnectionsAbortedByClient(count: 3)
            gate.open()
            let sentinel = try await harness.load(harness.url("/sentinel.png"))
            #expect(sentinel.image != nil)
            try await cancelled.wait(for: 3)
            #expect(cancelled.responses.map { $0.error?.code } == [.cancelled, .cancelled, .cancelled])
            #expect(Set(cancelled.responses.compactMap(\.url?.path)) == ["/a.png", "/b.png", "/c.png"])
            #expect(!harness.manager.isRunning)
        }
    }
}
