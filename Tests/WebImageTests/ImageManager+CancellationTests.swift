import Foundation
import LoopbackHTTPServer
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite("ImageManager cancellation and async API", .timeLimit(.minutes(15)))
struct ImageManagerCancellationTests {
    @Test func cancellingBeforeTheCacheAnswersAnswersCancelledOnce() async throws {
        try await ManagerTestHarness.run { harness in
            let url = harness.url("/cached.png"), sentinelURL = harness.url("/sentinel.png")
            try await harness.cache.store(nil, data: try ManagerTestImage.png(tint: 1), forKey: url.absoluteString, scope: .disk)
            try await harness.cache.store(nil, data: try ManagerTestImage.png(tint: 2), forKey: sentinelURL.absoluteString, scope: .disk)
            let ioGate = DispatchSemaphore(value: 0)
            harness.cache.ioQueue.async { ioGate.wait() }
            let cancelled = ImageResponseRecorder()
            let operation = harness.manager.loadImage(with: url, completion: cancelled.record)
            let task = Task { await capturedError { () async throws(ImageError) in try await harness.manager.image(from: url) } }
            operation.cancel()
            task.cancel()
            #expect(operation.isCancelled && !harness.manager.isRunning)
            ioGate.signal()
            let error = await task.value
            #expect(error?.code == .cancelled)
            let sentinel = try await harness.load(sentinelURL)
            #expect(sentinel.cacheType == .disk && sentinel.image?.bitmap.rgba8(x: 0, y: 0).blue == 2)
            harness.cache.ioQueue.sync {}
            try await cancelled.wait(for: 1)
            #expect(cancelled.responses.map { $0.error?.code } == [.cancelled])
            #expect(cancelled.responses.allSatisfy { $0.image == nil && $0.url == url })
            #expect(harness.cache.imageFromMemory(forKey: url.absoluteString) == nil, "the cancelled query decoded nothing")
            #expect(harness.server.requests.isEmpty)
        }
    }

    @Test func cancellingDuringTheDownloadAnswersCancelledOnceAndClosesTheConnection() async throws {
        try await ManagerTestHarness.run { harness in
            let gate = LoopbackGate()
            harness.serve("/stalled.png", try ManagerTestImage.png(), after: gate)
            harness.serve("/sentinel.png", try ManagerTestImage.png())
            let url = harness.url("/stalled.png")
            let cancelled = ImageResponseRecorder()
            let operation = harness.manager.loadImage(with: url, completion: cancelled.record)
            try await harness.server.waitForRequests(to: "/stalled.png")
            operation.cancel()
            #expect(operation.isCancelled && !harness.manager.isRunning)
            try await harness.server.waitForConnectionsAbortedByClient()
            gate.open()
            #expect(try await harness.load(harness.url("/sentinel.png")).image != nil)
            try await cancelled.wait(for: 1)
            #expect(cancelled.responses.map { $0.error?.code } == [.cancelled])
            #expect(!harness.manager.isFailedURL(url))
            #expect(await !harness.cache.diskImageExists(forKey: url.absoluteString))
        }
    }

    @Test func cancellingOneCallerLeavesTheSharedDownloadToTheOthers() async throws {
        try await ManagerTestHarness.run { harness in
            let gate = LoopbackGate()
            harness.serve("/shared.png", try ManagerTestImage.png(tint: 6), after: gate)
            let url = harness.url("/shared.png")
            let cancelled = ImageResponseRecorder(), kept = ImageResponseRecorder()
            let operation = harness.manager.loadImage(with: url, completion: cancelled.record)
            harness.manager.loadImage(with: url, completion: kept.record)
            try await harness.server.waitForRequests(to: "/shared.png")
            operation.cancel()
            gate.open()
            try await kept.wait(for: 1)
            #expect(kept.responses[0].image?.bitmap.rgba8(x: 0, y: 0).blue == 6)
            try await cancelled.wait(for: 1)
            #expect(cancelled.responses.map { $0.error?.code } == [.cancelled], "the cancelled caller hears only its cancellation")
            #expect(kept.count == 1)
            #expect(harness.server.requestCount(for: "/shared.png") == 1)
            #expect(harness.server.connectionsAbortedByClient == 0)
        }
    }

    @Test func cancellingTheTaskThrowsCancelled() async throws {
        try await ManagerTestHarness.run { harness in
            let gate = LoopbackGate()
            harness.serve("/stalled.png", try ManagerTestImage.png(), after: gate)
            let task = Task { await capturedError { () async throws(ImageError) in try await harness.manager.image(from: harness.url("/stalled.png")) } }
            try await harness.server.waitForRequests(to: "/stalled.png")
            task.cancel()
            let error = await task.value
            #expect(error?.code == .cancelled)
            try await harness.server.waitForConnectionsAbortedByClient()
            gate.open()
        }
    }

    @Test func theAsyncAPIAnswersWithTheImage() async throws {
        try await ManagerTestHarness.run { harness in
            harness.serve("/a.png", try ManagerTestImage.png(tint: 8))
            let url = harness.url("/a.png")
            let downloaded = try await harness.manager.image(from: url)
            #expect(downloaded.cacheType == .none && downloaded.image?.bitmap.rgba8(x: 2, y: 1).blue == 8)
            let hit = try await harness.manager.image(for: ImageRequest(url: url))
            #expect(hit.cacheType == .memory && hit.image === downloaded.image)
        }
    }

    @Test func eventsReportProgressThenTheResponse() async throws {
        try await ManagerTestHarness.run { harness in
            let bytes = Array(try ManagerTestImage.noisePNG(width: 32, height: 32))
            harness.server.route("/p.png") { _, response in
                await response.writeHead(status: 200, headers: [("Content-Type", "image/png"), ("Content-Length", "\(bytes.count)")])
                await response.writeBody(bytes[..<100])
                await response.writeBody(bytes[100...])
                await response.end()
            }
            var progress: [(Int64, Int64)] = []
            var responses: [ImageResponse] = []
            for await event in harness.manager.events(for: ImageRequest(url: harness.url("/p.png"))) {
                switch event {
                case let .progress(received, expected):
                    #expect(responses.isEmpty, "progress comes before the answer")
                    progress.append((received, expected))
                case .partialImage:
                    Issue.record("a load without progressiveDownload gives no partial images")
                case let .response(response):
                    responses.append(response)
                }
            }
            let total = Int64(bytes.count)
            #expect(progress.first.map { $0 == (0, total) } == true)
            #expect(progress.last.map { $0 == (total, total) } == true)
            #expect(zip(progress, progress.dropFirst()).allSatisfy { $0.0 <= $1.0 })
            #expect(responses.count == 1)
            #expect(responses.first?.image?.pixelSize == PixelSize(width: 32, height: 32))
        }
    }

    @Test func leavingTheEventStreamCancelsTheLoad() async throws {
        try await ManagerTestHarness.run { harness in
            let gate = LoopbackGate()
            let bytes = Array(try ManagerTestImage.noisePNG())
            harness.server.route("/p.png") { _, response in
                await response.writeHead(status: 200, headers: [("Content-Length", "\(bytes.count)")])
                await response.writeBody(bytes[..<100])
                await gate.wait()
                await response.writeBody(bytes[100...])
                await response.end()
            }
            let url = harness.url("/p.png")
            for await event in harness.manager.events(for: ImageRequest(url: url)) {
                if case .progress = event { break }
            }
            try await harness.server.waitForConnectionsAbortedByClient()
            gate.open()
            #expect(await !harness.cache.diskImageExists(forKey: url.absoluteString))
        }
    }
}
