import Foundation
import LoopbackHTTPServer
import Testing

@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// A target's load cancelled with its placeholder delayed: SDWebImage answers the cancel
/// on the cancelling (main) thread, so the placeholder shows and the completion runs once
/// before a following load under the same operation key starts.
@Suite struct WebImageTargetCancelTests {
    let grey = Image(bitmap: Bitmap(width: 2, height: 2, pixels: [UInt8](repeating: 128, count: 16)))

    @Test(arguments: [false, true])
    func aCancelledLoadShowsItsDelayedPlaceholderBeforeTheNextLoadStarts(throughTheTarget: Bool) async throws {
        try await withTargetManager { server, manager in
            let gate = LoopbackGate()
            server.routeStalledRawImage("/delayed.raw", blue: 7, until: gate)
            server.routeRawImage("/next.raw", blue: 4)
            let target = RecordingImageTarget(manager: manager)
            let cancelled = ImageResponseRecorder(), next = ImageResponseRecorder()
            let queue = DispatchQueue(label: "target-cancel-test.callbacks")

            var request = ImageRequest(url: server.url(for: "/delayed.raw"), options: .delayPlaceholder)
            request.callbackQueue = queue
            let operation = try #require(target.setImage(with: request, placeholder: grey, completed: cancelled.handler))
            try await server.waitForRequests(to: "/delayed.raw")
            #expect(target.displayed.isEmpty)

            if throughTheTarget {
                target.cancelCurrentImageLoad()
            } else {
                operation.cancel()
            }
            // Answered before cancel returned.
            #expect(cancelled.responses.map { $0.error?.code } == [.cancelled])
            #expect(target.displayed.count == 1 && target.image === grey)

            target.setImage(with: server.url(for: "/next.raw"), completed: next.handler)
            try await next.wait()
            // The manager queued its own cancelled answer before this: it has run, and was dropped.
            queue.sync {}
            gate.open()
            #expect(cancelled.count == 1)
            #expect(next.responses.map { $0.image?.testBlue } == [4])
            #expect(target.displayed.count == 3, "grey, the next load's empty placeholder, its image")
            #expect(target.image?.testBlue == 4)
        }
    }
}
