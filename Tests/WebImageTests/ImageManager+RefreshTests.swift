import Foundation
import LoopbackHTTPServer
import NIOConcurrencyHelpers
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite("ImageManager refreshCached", .timeLimit(.minutes(15)))
struct ImageManagerRefreshTests {
    /// Serves `/r.png` as version `version` with its ETag, and 304 to a request that names it.
    private func serveVersions(_ harness: ManagerTestHarness, version: NIOLockedValueBox<Int>) {
        harness.server.route("/r.png") { request, response in
            let current = version.withLockedValue { $0 }
            let tag = "\"v\(current)\""
            if request.header("If-None-Match") == tag {
                await response.respond(status: 304, headers: [("ETag", tag)])
            } else {
                let body = (try? ManagerTestImage.png(tint: UInt8(current))) ?? Data()
                await response.respond(headers: [("Content-Type", "image/png"), ("ETag", tag)], body: Array(body))
            }
        }
    }

    /// Every answer the `async` event stream of `request` gives.
    private func responses(_ manager: ImageManager, _ request: ImageRequest) async -> [ImageResponse] {
        var responses: [ImageResponse] = []
        for await event in manager.events(for: request) {
            if case let .response(response) = event { responses.append(response) }
        }
        return responses
    }

    @Test func anUnchangedImageAnswersOnceWithTheCachedImage() async throws {
        try await ManagerTestHarness.run { harness in
            let version = NIOLockedValueBox(1)
            serveVersions(harness, version: version)
            let url = harness.url("/r.png")
            let first = try await harness.load(url)
            #expect(await harness.cache.metadata(forKey: url.absoluteString)?.entityTag == "\"v1\"")

            let answers = await responses(harness.manager, ImageRequest(url: url, options: .refreshCached))
            #expect(answers.count == 1)
            #expect(answers.first?.cacheType == .memory && answers.first?.image === first.image)
            let revalidation = try #require(harness.server.requests.last)
            #expect(revalidation.header("If-None-Match") == "\"v1\"")
            #expect(harness.server.requestCount(for: "/r.png") == 2)
            #expect(harness.cache.imageFromMemory(forKey: url.absoluteString) === first.image)
        }
    }

    @Test func anUnchangedImageCallsTheCompletionOnce() async throws {
        try await ManagerTestHarness.run { harness in
            let version = NIOLockedValueBox(1)
            serveVersions(harness, version: version)
            let url = harness.url("/r.png")
            _ = try await harness.load(url)
            harness.cache.clearMemory()
            let queue = DispatchQueue(label: "refresh-test.callbacks")
            let recorder = ImageResponseRecorder()
            let operation = harness.manager.loadImage(with: ImageRequest(url: url, options: .refreshCached, callbackQueue: queue), completion: recorder.record)
            await harness.waitUntilFinished(operation, callbackQueue: queue)
            #expect(recorder.count == 1)
            #expect(recorder.responses.first?.cacheType == .disk)
            #expect(recorder.responses.first?.image?.bitmap.rgba8(x: 0, y: 0).blue == 1)
            #expect(harness.server.requests.last?.header("If-None-Match") == "\"v1\"")
        }
    }

    @Test func aChangedImageAnswersTwiceAndIsStored() async throws {
        try await ManagerTestHarness.run { harness in
            let version = NIOLockedValueBox(1)
            serveVersions(harness, version: version)
            let url = harness.url("/r.png")
            let first = try await harness.load(url)
            version.withLockedValue { $0 = 2 }

            let recorder = ImageResponseRecorder()
            harness.manager.loadImage(with: url, options: .refreshCached, completion: recorder.record)
            try await recorder.wait(for: 2)
            let (cached, fresh) = (recorder.responses[0], recorder.responses[1])
            #expect(cached.cacheType == .memory && cached.image === first.image && cached.isFinished)
            #expect(fresh.cacheType == .none && fresh.isFinished && fresh.error == nil)
            #expect(fresh.image?.bitmap == ManagerTestImage.bitmap(width: 8, height: 6, tint: 2))
            #expect(harness.server.requests.last?.header("If-None-Match") == "\"v1\"")

            let key = url.absoluteString
            #expect(harness.cache.imageFromMemory(forKey: key) === fresh.image)
            let secondVersion = try ManagerTestImage.png(tint: 2)
            #expect(harness.cache.diskStorage.data(forKey: key) == secondVersion)
            #expect(await harness.cache.metadata(forKey: key)?.entityTag == "\"v2\"")

            let answers = await responses(harness.manager, ImageRequest(url: url, options: .refreshCached))
            #expect(answers.count == 1, "the stored version is current again")
            #expect(harness.server.requests.last?.header("If-None-Match") == "\"v2\"")
        }
    }

    @Test func lastModifiedRevalidatesToo() async throws {
        try await ManagerTestHarness.run { harness in
            let stamp = "Sun, 06 Nov 1994 08:49:37 GMT"
            let bytes = try ManagerTestImage.png()
            harness.server.route("/lm.png") { request, response in
                if request.header("If-Modified-Since") == stamp {
                    await response.respond(status: 304)
                } else {
                    await response.respond(headers: [("Content-Type", "image/png"), ("Last-Modified", stamp)], body: Array(bytes))
                }
            }
            let url = harness.url("/lm.png")
            _ = try await harness.load(url)
            let answers = await responses(harness.manager, ImageRequest(url: url, options: .refreshCached))
            #expect(answers.map(\.cacheType) == [.memory])
            #expect(harness.server.requests.last?.header("If-Modified-Since") == stamp)
        }
    }

    @Test func aCachedImageBeingRefreshedTurnsProgressiveOff() {
        let options: ImageOptions = [.refreshCached, .progressiveDownload, .lowPriority]
        let refreshing = ImageManager.downloaderOptions(for: options, hasCachedImage: true)
        #expect(!refreshing.contains(.progressiveDownload) && refreshing.contains(.lowPriority))
        let fresh = ImageManager.downloaderOptions(for: options, hasCachedImage: false)
        #expect(fresh.contains(.progressiveDownload))
        #expect(
            ImageManager.downloaderOptions(for: [.highPriority, .scaleDownLargeImages], hasCachedImage: false)
                == [.highPriority, .scaleDownLargeImages])
    }
}
