import Foundation
import LoopbackHTTPServer
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite("ImageManager priority in flight")
struct ImageManagerPriorityTests {
    @Test func aLoadOperationsPriorityMovesItsQueuedDownload() async throws {
        try await ManagerTestHarness.run(configure: { $0.maxConcurrentDownloads = 1 }) { harness in
            let gate = LoopbackGate()
            let body = try ManagerTestImage.png()
            harness.serve("/first.png", body, after: gate)
            for name in ["a", "b", "c"] {
                harness.serve("/\(name).png", body)
            }
            let recorder = ImageResponseRecorder()
            var operations: [ImageLoadOperation] = []
            for (index, name) in ["first", "a", "b", "c"].enumerated() {
                operations.append(harness.manager.loadImage(with: harness.url("/\(name).png"), completion: recorder.record))
                // One at a time, so that the queue order is the order of the calls.
                #expect(await eventually { harness.downloader.currentDownloadCount == index + 1 })
            }
            try await harness.server.waitForRequests(to: "/first.png")
            operations[3].setPriority(.high)
            operations[1].setPriority(.low)
            gate.open()
            try await recorder.wait(for: 4)
            #expect(harness.server.requests.map(\.path) == ["/first.png", "/c.png", "/b.png", "/a.png"])
        }
    }
}
