import Foundation
import LoopbackHTTPServer
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite struct WebImageTargetTests {
    let grey = Image(bitmap: Bitmap(width: 2, height: 2, pixels: [UInt8](repeating: 128, count: 16)))

    @Test func aSecondLoadUnderTheSameKeyCancelsTheFirst() async throws {
        try await withTargetManager { server, manager in
            let gate = LoopbackGate()
            server.routeStalledRawImage("/first.raw", blue: 1, until: gate)
            server.routeRawImage("/second.raw", blue: 2)
            let target = RecordingImageTarget(manager: manager)
            let first = ImageResponseRecorder(), second = ImageResponseRecorder()

            let operation = try #require(target.setImage(with: server.url(for: "/first.raw"), placeholder: grey, completed: first.handler))
            try await server.waitForRequests(to: "/first.raw")
            target.setImage(with: server.url(for: "/second.raw"), placeholder: grey, completed: second.handler)
            #expect(operation.isCancelled)
            try await second.wait()
            try await server.waitForConnectionsAbortedByClient(count: 1)
            gate.open()

            try await first.wait()
            #expect(first.responses.map { $0.error?.code } == [.cancelled], "the replaced load answers once, cancelled")
            #expect(second.responses.map { $0.image?.testBlue } == [2])
            #expect(target.displayed.map { $0 === grey } == [true, true, false])
            #expect(target.image?.testBlue == 2)
            #expect(target.imageURL == server.url(for: "/second.raw"))
        }
    }

    @Test func loadsUnderDifferentKeysDoNotInterfere() async throws {
        try await withTargetManager { server, manager in
            let gate = LoopbackGate()
            server.routeRawImage("/slow.raw", blue: 1, after: gate)
            server.routeRawImage("/fast.raw", blue: 2)
            let target = RecordingImageTarget(manager: manager)
            let slow = ImageResponseRecorder(), fast = ImageResponseRecorder()

            let slowLoad = target.setImage(with: ImageRequest(url: server.url(for: "/slow.raw")), operationKey: "a", completed: slow.handler)
            target.setImage(with: ImageRequest(url: server.url(for: "/fast.raw")), operationKey: "b", completed: fast.handler)
            try await fast.wait()
            #expect(slowLoad?.isCancelled == false)
            #expect(target.imageOperations.isLoading(forKey: "a"))
            gate.open()
            try await slow.wait()

            #expect(slow.responses.map { $0.image?.testBlue } == [1])
            #expect(fast.responses.map { $0.image?.testBlue } == [2])
            #expect(target.imageOperations.url(forKey: "a") == server.url(for: "/slow.raw"))
            #expect(target.imageOperations.url(forKey: "b") == server.url(for: "/fast.raw"))
        }
    }

    @Test func thePlaceholderShowsAtOnceAndTheImageReplacesIt() async throws {
        try await withTargetManager { server, manager in
            let gate = LoopbackGate()
            server.routeRawImage("/late.raw", blue: 3, after: gate)
            let target = RecordingImageTarget(manager: manager)
            let recorder = ImageResponseRecorder()

            target.setImage(with: server.url(for: "/late.raw"), placeholder: grey, completed: recorder.handler)
            #expect(target.displayed.count == 1)
            #expect(target.image === grey)
            gate.open()
            try await recorder.wait()

            #expect(target.displayed.count == 2)
            #expect(target.image?.testBlue == 3)
            #expect(recorder.responses.first?.cacheType == ImageCacheType.none)
        }
    }

    @Test func delayPlaceholderShowsThePlaceholderOnlyWhenTheLoadFails() async throws {
        try await withTargetManager { server, manager in
            let gate = LoopbackGate()
            server.routeRawImage("/found.raw", blue: 4, after: gate)
            server.routeStatus("/missing.raw", 404, after: gate)
            let found = RecordingImageTarget(manager: manager), missing = RecordingImageTarget(manager: manager)
            let foundRecorder = ImageResponseRecorder(), missingRecorder = ImageResponseRecorder()

            found.setImage(with: server.url(for: "/found.raw"), placeholder: grey, options: .delayPlaceholder, completed: foundRecorder.handler)
            missing.setImage(with: server.url(for: "/missing.raw"), placeholder: grey, options: .delayPlaceholder, completed: missingRecorder.handler)
            #expect(found.displayed.isEmpty)
            #expect(missing.displayed.isEmpty)
            gate.open()
            try await foundRecorder.wait()
            try await missingRecorder.wait()

            #expect(found.displayed.count == 1)
            #expect(found.image?.testBlue == 4)
            #expect(missing.displayed.count == 1)
            #expect(missing.image === grey)
            #expect(missingRecorder.responses.first?.error?.statusCode == 404)
        }
    }

    @Test func avoidAutoSetImageHandsTheImageToTheCompletionOnly() async throws {
        try await withTargetManager { server, manager in
            server.routeRawImage("/manual.raw", blue: 5)
            let target = RecordingImageTarget(manager: manager)
            let recorder = ImageResponseRecorder()

            target.setImage(with: server.url(for: "/manual.raw"), placeholder: grey, options: .avoidAutoSetImage, completed: recorder.handler)
            try await recorder.wait()

            #expect(target.displayed.count == 1)
            #expect(target.image === grey)
            #expect(recorder.responses.map { $0.image?.testBlue } == [5])
        }
    }

    @Test func aNilURLShowsThePlaceholderAndFailsWithInvalidURL() async throws {
        try await withTargetManager { server, manager in
            let indicator = ActivityImageIndicator()
            let target = RecordingImageTarget(manager: manager, indicator: indicator)
            let plain = ImageResponseRecorder(), delayed = ImageResponseRecorder()

            let operation = target.setImage(with: nil as URL?, placeholder: grey, completed: plain.handler)
            target.setImage(with: ImageRequest(url: nil, options: .delayPlaceholder), placeholder: grey, operationKey: "delayed", completed: delayed.handler)
            try await plain.wait()
            try await delayed.wait()

            #expect(operation == nil)
            #expect(target.displayed.count == 2)
            #expect(target.displayed.allSatisfy { $0 === grey })
            #expect(plain.responses.map { $0.error?.code } == [.invalidURL])
            #expect(delayed.responses.map { $0.error?.code } == [.invalidURL])
            #expect(target.imageURL == nil)
            #expect(!indicator.isAnimating)
            #expect(server.requests.isEmpty)
        }
    }

    @Test func theIndicatorRunsFromTheStartToTheEndOfTheLoad() async throws {
        try await withTargetManager { server, manager in
            let gate = LoopbackGate()
            server.routeStalledRawImage("/progress.raw", blue: 6, until: gate)
            let indicator = ProgressImageIndicator()
            let target = RecordingImageTarget(manager: manager, indicator: indicator)
            let recorder = ImageResponseRecorder()
            let received = ArrivalLog<Int64>()

            target.setImage(
                with: server.url(for: "/progress.raw"),
                progress: { bytes, _ in if bytes > 0 { received.append(bytes) } },
                completed: recorder.handler
            )
            #expect(indicator.isAnimating)
            try await received.wait(for: 1)
            #expect(indicator.isAnimating)
            #expect(indicator.progress > 0 && indicator.progress < 1)
            gate.open()
            try await recorder.wait()

            #expect(!indicator.isAnimating)
            #expect(indicator.progress == 1)
            #expect(target.image?.testBlue == 6)
        }
    }

    @Test func cancellingTheCurrentLoadStopsItAndTheIndicator() async throws {
        try await withTargetManager { server, manager in
            let gate = LoopbackGate()
            server.routeStalledRawImage("/cancelled.raw", blue: 7, until: gate)
            let indicator = ActivityImageIndicator()
            let target = RecordingImageTarget(manager: manager, indicator: indicator)
            let recorder = ImageResponseRecorder()

            let operation = try #require(target.setImage(with: server.url(for: "/cancelled.raw"), placeholder: grey, completed: recorder.handler))
            try await server.waitForRequests(to: "/cancelled.raw")
            #expect(indicator.isAnimating)
            target.cancelCurrentImageLoad()
            try await server.waitForConnectionsAbortedByClient(count: 1)
            gate.open()

            #expect(operation.isCancelled)
            #expect(!indicator.isAnimating)
            #expect(!target.imageOperations.isLoading(forKey: target.imageOperationKey))
            try await recorder.wait()
            #expect(recorder.responses.map { $0.error?.code } == [.cancelled])
            #expect(target.displayed.count == 1)
        }
    }

    @Test func aCancelledLoadShowsItsDelayedPlaceholderAndAnswersOnce() async throws {
        try await withTargetManager { server, manager in
            let gate = LoopbackGate()
            server.routeStalledRawImage("/delayed.raw", blue: 7, until: gate)
            server.routeStalledRawImage("/replaced.raw", blue: 3, until: gate)
            server.routeRawImage("/next.raw", blue: 4)
            let indicator = ActivityImageIndicator()
            let target = RecordingImageTarget(manager: manager, indicator: indicator)
            let cancelled = ImageResponseRecorder(), replaced = ImageResponseRecorder(), next = ImageResponseRecorder()

            let request = ImageRequest(url: server.url(for: "/delayed.raw"), options: .delayPlaceholder)
            let operation = try #require(target.setImage(with: request, placeholder: grey, completed: cancelled.handler))
            try await server.waitForRequests(to: "/delayed.raw")
            #expect(target.displayed.isEmpty, "the placeholder waits for the load to end")
            operation.cancel()
            try await cancelled.wait()
            #expect(cancelled.responses.map { $0.error?.code } == [.cancelled])
            #expect(target.displayed.count == 1 && target.image === grey, "the cancelled load shows its delayed placeholder")
            #expect(!indicator.isAnimating)

            // A load replaced by another under the same key answers cancelled but leaves the target alone.
            let replacedRequest = ImageRequest(url: server.url(for: "/replaced.raw"), options: .delayPlaceholder)
            target.setImage(with: replacedRequest, placeholder: grey, completed: replaced.handler)
            try await server.waitForRequests(to: "/replaced.raw")
            target.setImage(with: server.url(for: "/next.raw"), completed: next.handler)
            try await replaced.wait()
            try await next.wait()
            gate.open()
            #expect(replaced.responses.map { $0.error?.code } == [.cancelled])
            #expect(next.responses.map { $0.image?.testBlue } == [4])
            #expect(target.image?.testBlue == 4)
            #expect(target.displayed.count == 3, "grey, the next load's empty placeholder, its image")
            #expect(cancelled.count == 1 && replaced.count == 1 && next.count == 1)
        }
    }

    @Test func anImageInMemoryShowsBeforeSetImageReturns() async throws {
        try await withTargetManager { server, manager in
            server.routeRawImage("/cached.raw", blue: 8)
            let url = server.url(for: "/cached.raw")
            let warm = ImageResponseRecorder()
            RecordingImageTarget(manager: manager).setImage(with: url, completed: warm.handler)
            try await warm.wait()

            let target = RecordingImageTarget(manager: manager)
            let recorder = ImageResponseRecorder()
            target.setImage(with: url, placeholder: grey, completed: recorder.handler)

            #expect(recorder.responses.map(\.cacheType) == [.memory])
            #expect(target.image?.testBlue == 8)
            #expect(server.requestCount(for: "/cached.raw") == 1)
        }
    }

    @Test func thePreviouslyCachedImageIsThePlaceholderWhileTheNewOneLoads() async throws {
        try await withTargetManager { server, manager in
            let gate = LoopbackGate()
            server.routeRawImage("/changing.raw", blue: 10, after: gate)
            let url = server.url(for: "/changing.raw")
            let oldBytes = Data(RawRGBATestCoder.encode(width: 4, height: 3, blue: 9))
            try await manager.cache.store(nil, data: oldBytes, forKey: manager.cacheKey(for: url), scope: .disk, metadata: nil)
            let target = RecordingImageTarget(manager: manager)
            let recorder = ImageResponseRecorder()

            target.setImageWithPreviousCachedImage(with: url, placeholder: grey, options: .fromLoaderOnly, completed: recorder.handler)
            #expect(target.displayed.count == 1)
            #expect(target.image?.testBlue == 9)
            gate.open()
            try await recorder.wait()

            #expect(target.displayed.map { $0?.testBlue } == [9, 10])
            #expect(recorder.responses.map(\.cacheType) == [.none])
        }
    }

    @Test func progressiveLoadsShowPartialImagesAndCompleteOnce() async throws {
        try await withTargetManager { server, manager in
            let gate = LoopbackGate()
            server.routeStalledRawImage("/progressive.raw", blue: 11, sentAtOnce: 24, until: gate)
            let target = RecordingImageTarget(manager: manager)
            let recorder = ImageResponseRecorder()

            target.setImage(with: server.url(for: "/progressive.raw"), placeholder: grey, options: .progressiveDownload, completed: recorder.handler)
            try await target.waitForDisplays(2)
            let partial = try #require(target.displayed[1])
            #expect(recorder.responses.isEmpty)
            #expect(partial.bitmap.rgba8(x: 3, y: 0) == RGBA8(red: 3, green: 0, blue: 11))
            #expect(partial.bitmap.rgba8(x: 0, y: 2).alpha == 0)
            gate.open()
            try await recorder.wait()

            #expect(recorder.responses.map(\.isFinished) == [true])
            #expect(target.image?.bitmap.rgba8(x: 0, y: 2) == RGBA8(red: 0, green: 2, blue: 11))
        }
    }
}
