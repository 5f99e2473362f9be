import Foundation
import LoopbackHTTPServer
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite("ImageManager blacklist", .timeLimit(.minutes(15)))
struct ImageManagerBlacklistTests {
    @Test func aNotFoundURLIsRefusedWithoutAskingTheServerAgain() async throws {
        try await ManagerTestHarness.run { harness in
            let url = harness.url("/missing.png")
            let first = try await harness.load(url)
            #expect(first.error?.statusCode == 404)
            #expect(harness.manager.isFailedURL(url))
            let second = try await harness.load(url)
            #expect(second.error?.code == .blacklisted && second.image == nil && second.isFinished)
            let viaAsync = await capturedError { () async throws(ImageError) in try await harness.manager.image(from: url) }
            #expect(viaAsync?.code == .blacklisted)
            #expect(harness.server.requestCount(for: "/missing.png") == 1)
        }
    }

    @Test func undecodableDataIsBlacklisted() async throws {
        try await ManagerTestHarness.run { harness in
            harness.serve("/junk.png", Data("this is not an image".utf8))
            let url = harness.url("/junk.png")
            let first = try await harness.load(url)
            #expect(first.error?.code == .badImageData)
            #expect(harness.manager.isFailedURL(url))
            #expect(try await harness.load(url).error?.code == .blacklisted)
            #expect(harness.server.requestCount(for: "/junk.png") == 1)
            #expect(await harness.cache.totalDiskCount() == 0)
        }
    }

    @Test func aTimeoutIsNotBlacklisted() async throws {
        // Long enough that the second, unstalled load never nears it, even on a loaded machine.
        try await ManagerTestHarness.run(configure: { $0.downloadTimeout = 5 }) { harness in
            let gate = LoopbackGate()
            harness.serve("/slow.png", try ManagerTestImage.png(), after: gate)
            let url = harness.url("/slow.png")
            let first = try await harness.load(url)
            #expect(first.error?.code == .timedOut)
            #expect(!harness.manager.isFailedURL(url))
            gate.open()
            let second = try await harness.load(url)
            #expect(second.image != nil && second.error == nil)
            #expect(harness.server.requestCount(for: "/slow.png") == 2)
        }
    }

    @Test func aRefusedConnectionIsNotBlacklisted() async throws {
        try await ManagerTestHarness.run { harness in
            // A stopped server's port could be taken at once by another test's server.
            let closed = try RefusingPort()
            let url = try #require(URL(string: "http://127.0.0.1:\(closed.port)/a.png"))
            for _ in 0..<2 {
                #expect(try await harness.load(url).error?.code == .cannotConnect)
            }
            #expect(!harness.manager.isFailedURL(url))
            withExtendedLifetime(closed) {}
        }
    }

    @Test func aCancelledLoadIsNotBlacklisted() async throws {
        try await ManagerTestHarness.run { harness in
            let gate = LoopbackGate()
            harness.serve("/stalled.png", try ManagerTestImage.png(), after: gate)
            let url = harness.url("/stalled.png")
            let task = Task { await capturedError { () async throws(ImageError) in try await harness.manager.image(from: url) } }
            try await harness.server.waitForRequests(to: "/stalled.png")
            task.cancel()
            let error = await task.value
            #expect(error?.code == .cancelled)
            #expect(!harness.manager.isFailedURL(url))
            gate.open()
            #expect(try await harness.load(url).image != nil)
        }
    }

    @Test func aDownloaderCancellingItsTransfersAnswersCancelledWithoutBlacklisting() async throws {
        try await ManagerTestHarness.run { harness in
            let gate = LoopbackGate()
            harness.serve("/stalled.png", try ManagerTestImage.png(), after: gate)
            let url = harness.url("/stalled.png")
            let recorder = ImageResponseRecorder()
            harness.manager.loadImage(with: url, completion: recorder.record)
            try await harness.server.waitForRequests(to: "/stalled.png")
            harness.downloader.cancelAllDownloads()
            try await recorder.wait(for: 1)
            #expect(recorder.responses[0].error?.code == .cancelled)
            #expect(!harness.manager.isFailedURL(url))
            gate.open()
        }
    }

    /// The blacklist keeps the most recently failed or refused URLs up to its capacity
    /// and forgets the least recently used beyond it.
    @Test func theBlacklistIsBoundedAndForgetsTheLeastRecentlyUsed() async throws {
        try await ManagerTestHarness.run { harness async throws in
            #expect(ImageManager.defaultFailedURLCapacity == 1_000)
            #expect(harness.manager.failedURLCapacity == 1_000)
            harness.manager.failedURLCapacity = 3
            let urls = (0..<4).map { harness.url("/missing-\($0).png") }
            for url in urls.prefix(3) {
                #expect(try await harness.load(url).error?.statusCode == 404)
            }
            // Refusing the first again makes it the most recently used…
            #expect(try await harness.load(urls[0]).error?.code == .blacklisted)
            // …so a fourth failure forgets the second.
            #expect(try await harness.load(urls[3]).error?.statusCode == 404)
            #expect(!harness.manager.isFailedURL(urls[1]))
            #expect(harness.manager.isFailedURL(urls[0]) && harness.manager.isFailedURL(urls[2]) && harness.manager.isFailedURL(urls[3]))
            // A forgotten URL is tried again.
            #expect(try await harness.load(urls[1]).error?.statusCode == 404)
            #expect(harness.server.requestCount(for: "/missing-1.png") == 2)
            #expect(harness.server.requestCount(for: "/missing-0.png") == 1)
            harness.manager.failedURLCapacity = 1
            #expect(harness.manager.failedURLs.count == 1)
        }
    }

    @Test func manyDistinctFailuresStayWithinTheCapacity() throws {
        let set = FailedURLSet()
        for index in 0..<10_000 {
            set.insert(try #require(URL(string: "https://images.example.com/\(index).png")))
        }
        #expect(set.count == FailedURLSet.defaultCapacity)
        #expect(set.contains(try #require(URL(string: "https://images.example.com/9999.png"))))
        #expect(!set.contains(try #require(URL(string: "https://images.example.com/0.png"))))
    }

    @Test func retryFailedTriesAgainAndASuccessClearsTheURL() async throws {
        try await ManagerTestHarness.run { harness in
            let url = harness.url("/later.png")
            #expect(try await harness.load(url).error?.statusCode == 404)
            harness.serve("/later.png", try ManagerTestImage.png(tint: 4))
            #expect(try await harness.load(url).error?.code == .blacklisted)
            let retried = try await harness.load(url, options: .retryFailed)
            #expect(retried.image?.bitmap.rgba8(x: 1, y: 1) == RGBA8(red: 16, green: 16, blue: 4))
            #expect(!harness.manager.isFailedURL(url))
            #expect(try await harness.load(url).cacheType == .memory)
            #expect(harness.server.requestCount(for: "/later.png") == 2)
        }
    }

    @Test func retryFailedKeepsAURLThatFailsAgain() async throws {
        try await ManagerTestHarness.run { harness in
            let url = harness.url("/missing.png")
            _ = try await harness.load(url)
            #expect(try await harness.load(url, options: .retryFailed).error?.statusCode == 404)
            #expect(harness.manager.isFailedURL(url))
            #expect(harness.server.requestCount(for: "/missing.png") == 2)
        }
    }

    @Test func shouldBlockFailedURLOverridesTheLoadersRule() async throws {
        try await ManagerTestHarness.run { harness in
            let closed = try RefusingPort()
            let refused = try #require(URL(string: "http://127.0.0.1:\(closed.port)/a.png"))
            let seen = DownloadCallbackRecorder<ImageError.Code>()
            harness.manager.shouldBlockFailedURL = { _, error in
                seen.append(error.code)
                return error.code == .cannotConnect
            }
            let missing = harness.url("/missing.png")
            _ = try await harness.load(missing)
            _ = try await harness.load(refused)
            #expect(!harness.manager.isFailedURL(missing), "a 404 the rule lets through")
            #expect(harness.manager.isFailedURL(refused), "a refused connection the rule blocks")
            #expect(seen.values == [.invalidStatusCode, .cannotConnect])
            #expect(try await harness.load(missing).error?.statusCode == 404)
            #expect(try await harness.load(refused).error?.code == .blacklisted)
            #expect(harness.server.requestCount(for: "/missing.png") == 2)
            withExtendedLifetime(closed) {}
        }
    }

    @Test func failedURLsCanBeRemovedOneByOneOrAll() async throws {
        try await ManagerTestHarness.run { harness in
            let first = harness.url("/one.png"), second = harness.url("/two.png"), third = harness.url("/three.png")
            for url in [first, second, third] {
                _ = try await harness.load(url)
            }
            #expect([first, second, third].allSatisfy(harness.manager.isFailedURL))
            harness.manager.removeFailedURL(first)
            #expect(!harness.manager.isFailedURL(first) && harness.manager.isFailedURL(second))
            #expect(try await harness.load(first).error?.statusCode == 404)
            #expect(harness.server.requestCount(for: "/one.png") == 2)
            harness.manager.removeAllFailedURLs()
            #expect(![first, second, third].contains(where: harness.manager.isFailedURL))
            #expect(try await harness.load(third).error?.statusCode == 404)
            #expect(harness.server.requestCount(for: "/three.png") == 2)
        }
    }
}
