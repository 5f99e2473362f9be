import Foundation
import LoopbackHTTPServer
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite struct WebImageTargetVariantsTests {
    @Test func eachButtonStateAndBackgroundLoadsOnItsOwn() async throws {
        try await withTargetManager { server, manager in
            let gate = LoopbackGate()
            server.routeRawImage("/normal.raw", blue: 1, after: gate)
            server.routeRawImage("/highlighted.raw", blue: 2)
            server.routeRawImage("/background.raw", blue: 3)
            server.routeRawImage("/selected-background.raw", blue: 4)
            let button = RecordingButtonTarget(manager: manager)
            let normal = ImageResponseRecorder(), others = ImageResponseRecorder()

            let normalLoad = button.setImage(with: server.url(for: "/normal.raw"), for: .normal, completed: normal.handler)
            button.setImage(with: server.url(for: "/highlighted.raw"), for: .highlighted, completed: others.handler)
            button.setBackgroundImage(with: server.url(for: "/background.raw"), for: .normal, completed: others.handler)
            button.setBackgroundImage(with: server.url(for: "/selected-background.raw"), for: .selected, completed: others.handler)
            try await others.wait(for: 3)
            #expect(normalLoad?.isCancelled == false)
            gate.open()
            try await normal.wait()

            #expect(button.image(for: .normal)?.testBlue == 1)
            #expect(button.image(for: .highlighted)?.testBlue == 2)
            #expect(button.backgroundImage(for: .normal)?.testBlue == 3)
            #expect(button.backgroundImage(for: .selected)?.testBlue == 4)
            #expect(button.image(for: .selected) == nil)
            #expect(button.image(for: .disabled) == nil)
            #expect(button.imageURL(for: .highlighted) == server.url(for: "/highlighted.raw"))
            #expect(button.backgroundImageURL(for: .selected) == server.url(for: "/selected-background.raw"))
            #expect(button.imageURL(for: .disabled) == nil)
        }
    }

    @Test func aNewImageForAButtonStateCancelsOnlyThatState() async throws {
        try await withTargetManager { server, manager in
            let gate = LoopbackGate()
            server.routeStalledRawImage("/old.raw", blue: 1, until: gate)
            server.routeRawImage("/background.raw", blue: 2, after: gate)
            server.routeRawImage("/new.raw", blue: 3)
            let button = RecordingButtonTarget(manager: manager)
            let old = ImageResponseRecorder(), background = ImageResponseRecorder(), new = ImageResponseRecorder()

            let oldLoad = try #require(button.setImage(with: server.url(for: "/old.raw"), for: .disabled, completed: old.handler))
            let backgroundLoad = try #require(button.setBackgroundImage(with: server.url(for: "/background.raw"), for: .disabled, completed: background.handler))
            try await server.waitForRequests(to: "/old.raw")
            button.setImage(with: server.url(for: "/new.raw"), for: .disabled, completed: new.handler)
            try await new.wait()
            #expect(oldLoad.isCancelled)
            #expect(!backgroundLoad.isCancelled)
            gate.open()
            try await background.wait()

            try await old.wait()
            #expect(old.responses.map { $0.error?.code } == [.cancelled], "the replaced load answers once, cancelled")
            #expect(background.count == 1 && new.count == 1)
            #expect(button.image(for: .disabled)?.testBlue == 3)
            #expect(button.backgroundImage(for: .disabled)?.testBlue == 2)
        }
    }

    @Test func theHighlightedImageLoadsBesideTheMainImage() async throws {
        try await withTargetManager { server, manager in
            let gate = LoopbackGate()
            server.routeRawImage("/main.raw", blue: 5, after: gate)
            server.routeRawImage("/pressed.raw", blue: 6)
            let target = RecordingImageTarget(manager: manager)
            let main = ImageResponseRecorder(), highlighted = ImageResponseRecorder()

            let mainLoad = target.setImage(with: server.url(for: "/main.raw"), completed: main.handler)
            target.setHighlightedImage(with: server.url(for: "/pressed.raw"), completed: highlighted.handler)
            try await highlighted.wait()
            #expect(mainLoad?.isCancelled == false)
            gate.open()
            try await main.wait()

            #expect(target.image?.testBlue == 5)
            #expect(target.displayedHighlighted.map { $0?.testBlue } == [nil, 6])
            #expect(target.highlightedImageURL == server.url(for: "/pressed.raw"))
            #expect(target.imageURL == server.url(for: "/main.raw"))
            #expect(target.highlightedImageOperationKey != target.imageOperationKey)
        }
    }

    @Test func anAnnotationStandsOnTheMiddleOfItsImagesBottomEdge() async throws {
        try await withTargetManager { server, manager in
            server.routeRawImage("/pin.raw", blue: 7, width: 4, height: 6)
            let marker = RecordingAnnotationTarget(manager: manager)
            let recorder = ImageResponseRecorder()

            marker.setImage(with: server.url(for: "/pin.raw"), completed: recorder.handler)
            try await recorder.wait()

            #expect(marker.image?.testBlue == 7)
            #expect(marker.centerOffset.x == 0)
            #expect(marker.centerOffset.y == -3)
            #expect(marker.imageOperationKey == "RecordingAnnotationTarget")
        }
    }
}
