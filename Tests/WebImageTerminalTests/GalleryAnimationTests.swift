import Foundation
import Testing
@testable import WebImage
@testable import WebImageTerminal
import WebImageTestSupport
import WebImageLoadingTestSupport

/// A ``GalleryModel`` that plays animations: the cells on screen play theirs by the model's
/// clock, a cell that scrolls away stops its animation and frees its frames, and stopping
/// the model stops them all.
@Suite(.timeLimit(.minutes(15)))
struct GalleryAnimationTests {
    @Test func visibleCellsPlayAndCellsThatScrollAwayStopAndFreeTheirFrames() async throws {
        try await ManagerTestHarness.run { harness in
            let gif = try TestImages.animatedGIF()
            let urls = (0..<6).map { index in
                harness.serve("/gallery/\(index).gif", gif.data, headers: [("Content-Type", "image/gif")])
                return harness.url("/gallery/\(index).gif")
            }
            let clock = ManualAnimationClock()
            let model = GalleryModel(
                urls: urls, columns: 2, rows: 1, prefetchScreens: 0, playsAnimations: true, animationClock: clock,
                manager: harness.manager
            )
            model.start()
            await model.visibleLoadsSettled()
            #expect(await eventually { model.playingItems == [0, 1] })
            let firstPlayers = model.cells.compactMap { $0.animationPlayback.player }
            #expect(firstPlayers.count == 2)
            for player in firstPlayers {
                #expect(player.maxBufferSize == GalleryCell.bufferedFrames * player.animation.frameByteCount)
            }
            for cell in model.cells {
                #expect(cell.image?.bitmap == gif.frames[0].bitmap, "the poster shows first")
            }

            // Once frame 1 is decoded ahead, the clock moving past frame 0 shows it in both cells.
            #expect(await eventually { firstPlayers.allSatisfy { $0.bufferedFrameIndices.contains(1) } })
            let shownBefore = model.animationFramesShown
            clock.advance(by: 0.1)
            #expect(model.animationFramesShown == shownBefore + 2)
            for cell in model.cells {
                #expect(cell.image?.bitmap == gif.frames[1].bitmap)
            }
            #expect(model.animationFramesSkipped == 0)

            // Scrolling reuses both cells for items 2 and 3: the animations of 0 and 1 stop
            // and drop their buffered frames.
            model.scroll(byRows: 1)
            for player in firstPlayers {
                #expect(!player.isPlaying)
                #expect(player.bufferedByteCount == 0)
            }
            await model.visibleLoadsSettled()
            #expect(await eventually { model.playingItems == [2, 3] })

            model.stop()
            #expect(model.playingItems.isEmpty)
            for cell in model.cells {
                #expect(cell.animationPlayback.player?.bufferedByteCount ?? 0 == 0)
            }
        }
    }

    @Test func aGalleryThatDoesNotPlayShowsTheFirstFrameWithoutAPlayer() async throws {
        try await ManagerTestHarness.run { harness in
            let gif = try TestImages.animatedGIF()
            harness.serve("/still/0.gif", gif.data, headers: [("Content-Type", "image/gif")])
            let model = GalleryModel(urls: [harness.url("/still/0.gif")], columns: 1, rows: 1, manager: harness.manager)
            model.start()
            await model.visibleLoadsSettled()
            let cell = try #require(model.cell(forItem: 0))
            #expect(cell.animationPlayback.player == nil)
            #expect(cell.image?.frames.count == gif.frames.count, "every frame decoded, as before")
            #expect(model.animationFramesShown == 0)
            model.stop()
        }
    }
}
