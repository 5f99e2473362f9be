import Foundation
import LoopbackHTTPServer
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// Progressive animation end to end: an animated GIF (or APNG, or WebP) streamed over the
/// loopback server in gated chunks gives partial answers with more and more frames, then the complete
/// animation, and an ``AnimatedImageTarget`` plays it before the download ends.
@Suite("ImageManager progressive animations", .timeLimit(.minutes(15)))
struct ImageManagerProgressiveAnimationTests {
    /// Serves the fixture file at `path` in three chunks, cut inside frames 1 and 3: each
    /// chunk after the first waits for its gate.
    static func serveInChunks(
        _ fixture: ProgressiveAnimationFixture, at path: String, on server: LoopbackHTTPServer, gates: [LoopbackGate]
    ) {
        let ends = fixture.frameEnds
        let cuts = [(ends[0] + ends[1]) / 2, (ends[2] + ends[3]) / 2]
        let bytes = [UInt8](fixture.data)
        server.route(path) { _, response in
            let type = ImageFormat(sniffing: fixture.data).mimeType ?? "application/octet-stream"
            await response.writeHead(status: 200, headers: [("Content-Type", type), ("Content-Length", "\(bytes.count)")])
            await response.writeBody(bytes[0..<cuts[0]])
            await gates[0].wait()
            await response.writeBody(bytes[cuts[0]..<cuts[1]])
            await gates[1].wait()
            await response.writeBody(bytes[cuts[1]...])
            await response.end()
        }
    }

    @Test(
        "a streamed animation answers with growing animations, then the complete one",
        arguments: ProgressiveAnimationFixture.Format.allCases)
    func aStreamedAnimationAnswersWithGrowingAnimations(_ format: ProgressiveAnimationFixture.Format) async throws {
        try await ManagerTestHarness.run { harness in
            let fixture = try ProgressiveAnimationFixture.make(format)
            let gates = [LoopbackGate(), LoopbackGate()]
            Self.serveInChunks(fixture, at: "/stream", on: harness.server, gates: gates)
            let recorder = ImageResponseRecorder()
            let request = ImageRequest(url: harness.url("/stream"), options: [.progressiveDownload, .decodeFramesOnDemand])
            harness.manager.loadImage(with: request) { response in
                recorder.record(response)
                // The next chunk is sent once this one's frames have been answered.
                let frames = response.image?.animation?.frameCount ?? 0
                if frames >= 1 { gates[0].open() }
                if frames >= 3 { gates[1].open() }
            }
            try await recorder.waitForFinishedResponse()

            let partials = recorder.responses.filter { !$0.isFinished }.compactMap(\.image?.animation)
            let counts = partials.map(\.frameCount)
            #expect(counts.contains(1) && counts.contains(3), "\(counts)")
            #expect(counts == counts.sorted(), "the frame counts only grow")
            #expect(partials.allSatisfy { !$0.isComplete })
            let final = try #require(recorder.responses.last?.image?.animation)
            #expect(recorder.responses.last?.isFinished == true)
            #expect(final.isComplete && final.frameCount == 4)
            for partial in partials {
                #expect(final.continues(partial))
            }
        }
    }

    @Test func aTargetPlaysTheAnimationBeforeTheDownloadEnds() async throws {
        try await ManagerTestHarness.run { harness in
            let fixture = try ProgressiveAnimationFixture.make(.gif)
            let gates = [LoopbackGate(), LoopbackGate()]
            Self.serveInChunks(fixture, at: "/play.gif", on: harness.server, gates: gates)
            let full = try AnimatedImage(data: fixture.data, coder: GIFCoder())
            let clock = ManualAnimationClock()
            let target = RecordingAnimatedTarget(manager: harness.manager, clock: clock)
            let completed = ImageResponseRecorder()
            target.setAnimatedImage(with: harness.url("/play.gif"), options: [.progressiveDownload], completed: completed.handler)

            #expect(await eventually { target.animationPlayback.player?.currentFrameIndex == 0 })
            let player = try #require(target.animationPlayback.player)
            #expect(!player.animation.isComplete && player.animation.frameCount == 1)
            #expect(completed.count == 0, "the download has not ended")
            clock.advance(by: 0.1)
            #expect(player.isWaitingForFrames, "the only frame received holds")

            gates[0].open()
            #expect(await eventually { player.currentFrameIndex == 1 })
            #expect(player.animation.frameCount == 3)
            #expect(target.animationPlayback.player === player, "the player goes on, it is not replaced")
            let second = try full.frame(at: 1).bitmap
            #expect(await eventually { target.displayed.last??.bitmap == second })
            #expect(completed.count == 0)

            gates[1].open()
            try await completed.waitForFinishedResponse()
            #expect(await eventually { player.animation.isComplete })
            #expect(target.animationPlayback.player === player)
            #expect(await eventually { player.bufferedFrameIndices.contains(2) })
            clock.advance(by: 0.1)
            #expect(player.currentFrameIndex == 2)
            let third = try full.frame(at: 2).bitmap
            #expect(target.displayed.last??.bitmap == third)
        }
    }
}
