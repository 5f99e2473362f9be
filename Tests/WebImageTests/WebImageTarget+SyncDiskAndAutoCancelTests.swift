import Foundation
import LoopbackHTTPServer
import Testing

@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// SDWebImage's `queryDiskDataSync` (a disk hit shown before `setImage` returns) and
/// `avoidAutoCancelImage` (a new load under the same key leaves the running one alone).
@Suite struct WebImageTargetSyncDiskAndAutoCancelTests {
    /// Runs `body` on a dispatch queue, so that its blocking disk read does not block the
    /// cooperative pool.
    private func onQueue<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            DispatchQueue(label: "sync-disk-test").async { continuation.resume(returning: body()) }
        }
    }

    @Test func aDiskHitShowsBeforeSetImageReturnsWithQueryDiskDataSync() async throws {
        try await withTargetManager { server, manager in
            server.routeRawImage("/disk.raw", blue: 9)
            let url = server.url(for: "/disk.raw")
            let warm = ImageResponseRecorder()
            RecordingImageTarget(manager: manager).setImage(with: url, completed: warm.handler)
            try await warm.wait()
            manager.imageCache?.clearMemory()

            let target = RecordingImageTarget(manager: manager)
            let recorder = ImageResponseRecorder()
            let shownAtReturn = await onQueue {
                target.setImage(with: url, options: .queryDiskDataSync, completed: recorder.handler)
                return (target.image?.testBlue, recorder.responses.map(\.cacheType))
            }
            #expect(shownAtReturn.0 == 9)
            #expect(shownAtReturn.1 == [.disk])
            #expect(server.requestCount(for: "/disk.raw") == 1)

            // Without the option the disk hit comes later.
            manager.imageCache?.clearMemory()
            let later = RecordingImageTarget(manager: manager)
            let laterRecorder = ImageResponseRecorder()
            let answeredAtReturn = await onQueue {
                later.setImage(with: url, completed: laterRecorder.handler)
                return laterRecorder.count
            }
            #expect(answeredAtReturn == 0)
            try await laterRecorder.wait()
            #expect(laterRecorder.responses.map(\.cacheType) == [.disk])
        }
    }

    @Test func avoidAutoCancelImageLetsTheRunningLoadFinish() async throws {
        try await withTargetManager { server, manager in
            let gate = LoopbackGate()
            server.routeStalledRawImage("/first.raw", blue: 1, until: gate)
            server.routeRawImage("/second.raw", blue: 2)
            let target = RecordingImageTarget(manager: manager)
            let first = ImageResponseRecorder(), second = ImageResponseRecorder()

            let operation = try #require(target.setImage(with: server.url(for: "/first.raw"), completed: first.handler))
            try await server.waitForRequests(to: "/first.raw")
            target.setImage(with: server.url(for: "/second.raw"), options: .avoidAutoCancelImage, completed: second.handler)
            #expect(!operation.isCancelled)
            try await second.wait()
            #expect(target.image?.testBlue == 2)

            gate.open()
            try await first.wait()
            #expect(first.responses.map { $0.image?.testBlue } == [1], "the first load went on and finished")
            #expect(target.image?.testBlue == 2, "the target shows the newer load")
        }
    }
}
