import Foundation
import Testing
@testable import WebImage
@testable import WebImageTerminal
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite struct GalleryFrameRendererTests {
    @Test func aFrameIsTheGridOfCellsThenTheStatusLine() async throws {
        try await withTargetManager { server, manager in
            var urls = GalleryTestServer.routeImages(on: server, count: 5)
            server.routeStatus("/gone.raw", 404)
            urls[4] = server.url(for: "/gone.raw")
            let model = GalleryModel(urls: urls, columns: 3, rows: 2, manager: manager)
            model.start()
            await model.visibleLoadsSettled()
            let renderer = GalleryFrameRenderer(cellColumns: 10, imageRows: 3)

            let lines = renderer.lines(for: model)

            #expect(lines.count == 2 * 4 + 1)
            #expect(lines[0].hasPrefix("\u{1B}[38;2;0;0;0;48;2;"))
            #expect(lines[3].hasPrefix("● #1 netw "))
            #expect(lines[3].contains("● #2 netw "))
            #expect(lines[7].contains("✗ #5 404  "))
            #expect(lines[7].hasSuffix(String(repeating: " ", count: 10)))
            #expect(lines[8] == "items 1–5 of 5 · in flight 0 · cancelled 0 · memory 0 · disk 0 · network 4 · errors 1")
            model.stop()
        }
    }

    @Test func pixelProtocolsPlaceEachImageOverItsCell() async throws {
        try await withTargetManager { server, manager in
            let urls = GalleryTestServer.routeImages(on: server, count: 2)
            let model = GalleryModel(urls: urls, columns: 2, rows: 1, manager: manager)
            model.start()
            await model.visibleLoadsSettled()
            let renderer = GalleryFrameRenderer(
                images: TerminalImageRenderer(graphics: .kitty, cellPixelSize: PixelSize(width: 1, height: 1)),
                cellColumns: 10,
                imageRows: 3
            )

            let overlay = renderer.imageOverlay(for: model, firstLine: 2)

            #expect(overlay.hasPrefix("\u{1B}_Ga=d,q=2\u{1B}\\\u{1B}[2;1H\u{1B}_G"))
            #expect(overlay.contains("\u{1B}[2;11H\u{1B}_G"))
            #expect(renderer.lines(for: model)[0] == String(repeating: " ", count: 20))
            model.stop()
        }
    }
}
