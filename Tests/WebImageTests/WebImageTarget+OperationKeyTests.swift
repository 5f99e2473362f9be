import Foundation
import LoopbackHTTPServer
import NIOConcurrencyHelpers
import Testing

@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// SDWebImage passes a view's `setImageOperationKey` in the context its options processor
/// sees.
@Suite struct WebImageTargetOperationKeyTests {
    @Test func theOptionsProcessorSeesTheTargetsOperationKey() async throws {
        try await withTargetManager { server, manager in
            server.routeRawImage("/a.raw", blue: 1)
            server.routeRawImage("/b.raw", blue: 2)
            let seen = NIOLockedValueBox<[String?]>([])
            manager.optionsProcessor = { request in
                seen.withLockedValue { $0.append(request.operationKey) }
                return request
            }
            let target = RecordingImageTarget(manager: manager)
            let first = ImageResponseRecorder(), second = ImageResponseRecorder(), direct = ImageResponseRecorder()
            target.setImage(with: server.url(for: "/a.raw"), completed: first.handler)
            target.setImage(with: ImageRequest(url: server.url(for: "/b.raw")), operationKey: "badge", completed: second.handler)
            manager.loadImage(with: ImageRequest(url: server.url(for: "/b.raw")), completion: direct.handler)
            try await first.wait()
            try await second.wait()
            try await direct.wait()
            #expect(seen.withLockedValue { $0 } == [target.imageOperationKey, "badge", nil])
        }
    }
}
