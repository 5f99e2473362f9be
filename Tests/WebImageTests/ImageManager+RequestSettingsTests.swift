import Foundation
import LoopbackHTTPServer
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite("ImageManager request settings", .timeLimit(.minutes(15)))
struct ImageManagerRequestSettingsTests {
    private static let queueName = DispatchSpecificKey<String>()

    private func namedQueue(_ name: String) -> DispatchQueue {
        let queue = DispatchQueue(label: name)
        queue.setSpecific(key: Self.queueName, value: name)
        return queue
    }

    @Test func progressAndCompletionRunOnTheRequestsQueue() async throws {
        try await ManagerTestHarness.run { harness in
            let bytes = try ManagerTestImage.noisePNG(width: 16, height: 16)
            harness.serve("/a.png", bytes)
            harness.serve("/b.png", bytes)
            let progressQueues = DownloadCallbackRecorder<String?>()
            let progressValues = DownloadCallbackRecorder<Int64>()
            let completionQueues = DownloadCallbackRecorder<String?>()
            let recorder = ImageResponseRecorder()
            let request = ImageRequest(url: harness.url("/a.png"), callbackQueue: namedQueue("request-queue"))
            harness.manager.loadImage(
                with: request,
                progress: { received, _ in
                    progressQueues.append(DispatchQueue.getSpecific(key: Self.queueName))
                    progressValues.append(received)
                },
                completion: { response in
                    completionQueues.append(DispatchQueue.getSpecific(key: Self.queueName))
                    recorder.record(response)
                })
            try await recorder.wait(for: 1)
            #expect(progressValues.values.first == 0 && progressValues.values.last == Int64(bytes.count))
            #expect(progressQueues.values.allSatisfy { $0 == "request-queue" })
            #expect(completionQueues.values == ["request-queue"])

            harness.manager.callbackQueue = namedQueue("manager-queue")
            harness.manager.loadImage(with: harness.url("/b.png")) { response in
                completionQueues.append(DispatchQueue.getSpecific(key: Self.queueName))
                recorder.record(response)
            }
            try await recorder.wait(for: 2)
            #expect(completionQueues.values == ["request-queue", "manager-queue"])
        }
    }

    @Test func theRequestsHeadersReachTheServer() async throws {
        try await ManagerTestHarness.run { harness in
            harness.serve("/a.png", try ManagerTestImage.png())
            let request = ImageRequest(url: harness.url("/a.png"), headers: ["X-Client": "manager-tests"])
            #expect(try await harness.load(request).image != nil)
            #expect(harness.server.requests.first?.header("X-Client") == "manager-tests")
        }
    }

    @Test func anImageSavedToTheCacheAnswersWithoutADownload() async throws {
        try await ManagerTestHarness.run { harness in
            let url = harness.url("/saved.png")
            let image = Image(bitmap: ManagerTestImage.bitmap(width: 4, height: 4, tint: 7))
            #expect(await !harness.manager.cachedImageExists(for: url))
            try await harness.manager.saveImageToCache(image, for: url)
            #expect(await harness.manager.cachedImageExists(for: url))
            #expect(await harness.manager.diskImageExists(for: url))
            let hit = try await harness.load(url)
            #expect(hit.cacheType == .memory && hit.image === image)
            let fromDisk = try await harness.load(url, with: harness.makeManager())
            #expect(fromDisk.cacheType == .disk && fromDisk.image?.format == .jpeg, "an opaque image is stored as JPEG")
            #expect(fromDisk.image?.pixelSize == PixelSize(width: 4, height: 4))
            #expect(harness.server.requests.isEmpty)
        }
    }

    @Test func queryAndStoreCacheTypesNarrowTheLevels() async throws {
        try await ManagerTestHarness.run { harness in
            harness.serve("/a.png", try ManagerTestImage.png())
            let url = harness.url("/a.png")
            _ = try await harness.load(ImageRequest(url: url, storeCacheType: .disk))
            #expect(harness.cache.imageFromMemory(forKey: url.absoluteString) == nil)
            #expect(await harness.cache.diskImageExists(forKey: url.absoluteString))
            let skipped = try await harness.load(ImageRequest(url: url, queryCacheType: .none, storeCacheType: .none))
            #expect(skipped.cacheType == .none)
            #expect(harness.server.requestCount(for: "/a.png") == 2)
            let fromDisk = try await harness.load(ImageRequest(url: url, queryCacheType: .disk))
            #expect(fromDisk.cacheType == .disk)
        }
    }
}
