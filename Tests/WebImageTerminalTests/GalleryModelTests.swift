import Foundation
import LoopbackHTTPServer
import Testing
@testable import WebImage
@testable import WebImageTerminal
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite struct GalleryModelTests {
    @Test func scrollingFasterThanImagesLoadCancelsTheLoadsOfCellsThatLeft() async throws {
        try await withTargetManager { server, manager in
            let gate = LoopbackGate()
            let urls = GalleryTestServer.routeImages(on: server, count: 1000, after: gate)
            let model = GalleryModel(urls: urls, columns: 4, rows: 3, manager: manager)
            let bound = model.layout.cellCount + model.layout.prefetchWindowSize
            model.start()
            try await server.waitForRequests(to: "/gallery/0.raw")

            var steps = 0
            var violations: [String] = []
            while model.topRow < model.layout.lastTopRow {
                steps += 1
                model.scroll(byRows: steps % 3 == 0 ? model.layout.rows : 1)
                let visible = model.visibleRange
                let prefetch = model.prefetchRange
                let statistics = model.statistics
                if statistics.inFlight > bound { violations.append("\(statistics.inFlight) in flight at row \(model.topRow)") }
                if !model.loadingItems.isSubset(of: Set(visible)) { violations.append("an off-screen cell loads at row \(model.topRow)") }
                if !model.prefetchingItems.allSatisfy({ visible.contains($0) || prefetch.contains($0) }) {
                    violations.append("a prefetch outside the window at row \(model.topRow)")
                }
                if !model.cells.allSatisfy({ $0.item.map(visible.contains) == true }) {
                    violations.append("a cell holds an off-screen item at row \(model.topRow)")
                }
            }
            #expect(violations.isEmpty, "\(violations.prefix(5))")

            let scrolled = model.statistics
            #expect(model.visibleRange == 988..<1000)
            #expect(scrolled.cellLoadsStarted == 1000)
            #expect(scrolled.cellLoadsFinished == 0)
            #expect(scrolled.cellLoadsCancelled == 1000 - 12)
            #expect(model.loadingItems == Set(988..<1000))
            #expect(scrolled.peakInFlight <= bound)
            #expect(scrolled.prefetchesCancelled > 0)
            try await server.waitForConnectionsAbortedByClient(count: 1)

            gate.open()
            await model.visibleLoadsSettled()
            let settled = model.statistics
            #expect(settled.cellLoadsFinished == 12)
            #expect(settled.cellLoadsStarted == settled.cellLoadsFinished + settled.cellLoadsCancelled)
            #expect(settled.errors == 0)
            for item in 988..<1000 {
                let cell = try #require(model.cell(forItem: item))
                #expect(cell.image?.testBlue == UInt8(item % 256))
                #expect(!cell.isShowingPlaceholder)
                #expect(!cell.activityIndicator.isAnimating)
            }
            model.stop()
        }
    }

    @Test func cellsShowThePlaceholderAndTheSpinnerUntilTheirImageArrives() async throws {
        try await withTargetManager { server, manager in
            let gate = LoopbackGate()
            let urls = GalleryTestServer.routeImages(on: server, count: 20, after: gate)
            let model = GalleryModel(urls: urls, columns: 3, rows: 2, manager: manager)
            model.start()

            #expect(model.cells.allSatisfy { $0.isShowingPlaceholder && $0.activityIndicator.isAnimating && $0.response == nil })
            gate.open()
            await model.visibleLoadsSettled()

            #expect(model.cells.allSatisfy { !$0.isShowingPlaceholder && !$0.activityIndicator.isAnimating })
            #expect(model.cells.compactMap { $0.response?.cacheType } == [ImageCacheType](repeating: .none, count: 6))
            #expect(model.statistics.downloads == 6)
            model.stop()
        }
    }

    @Test func scrollingBackShowsCachedThumbnailsAtOnce() async throws {
        try await withTargetManager { server, manager in
            let urls = GalleryTestServer.routeImages(on: server, count: 60)
            let thumbnail = PixelSize(width: 2, height: 2)
            let model = GalleryModel(urls: urls, columns: 3, rows: 2, thumbnailPixelSize: thumbnail, manager: manager)
            model.start()
            await model.visibleLoadsSettled()
            model.scroll(byPages: 2)
            await model.visibleLoadsSettled()
            let before = model.statistics.memoryHits

            model.scroll(toRow: 0)

            #expect(model.statistics.memoryHits == before + 6)
            #expect(model.loadingItems.isEmpty)
            for item in 0..<6 {
                let cell = try #require(model.cell(forItem: item))
                #expect(cell.image?.testBlue == UInt8(item))
                #expect(cell.image?.pixelSize == thumbnail)
                #expect(cell.response?.cacheType == .memory)
            }
            #expect(server.requestCount(for: "/gallery/0.raw") == 1)
            model.stop()
        }
    }

    @Test func failedImagesAreCountedAndKeepThePlaceholder() async throws {
        try await withTargetManager { server, manager in
            var urls = GalleryTestServer.routeImages(on: server, count: 4)
            server.routeStatus("/gone.raw", 404)
            urls[1] = server.url(for: "/gone.raw")
            let model = GalleryModel(urls: urls, columns: 2, rows: 2, manager: manager)
            model.start()
            await model.visibleLoadsSettled()

            let failed = try #require(model.cell(forItem: 1))
            #expect(failed.isShowingPlaceholder)
            #expect(failed.response?.error?.statusCode == 404)
            #expect(model.statistics.errors == 1)
            #expect(model.statistics.downloads == 3)
            model.stop()
        }
    }
}
