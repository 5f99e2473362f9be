import Testing
@testable import WebImage
@testable import WebImageTerminal
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite struct GalleryLayoutTests {
    let layout = GalleryLayout(itemCount: 1000, columns: 4, rows: 3)

    @Test func theScreenShowsWholeRowsOfItems() {
        #expect(layout.cellCount == 12)
        #expect(layout.rowCount == 250)
        #expect(layout.lastTopRow == 247)
        #expect(layout.visibleRange(topRow: 0) == 0..<12)
        #expect(layout.visibleRange(topRow: 10) == 40..<52)
        #expect(layout.visibleRange(topRow: 500) == 988..<1000)
        #expect(layout.visibleRange(topRow: -3) == 0..<12)
    }

    @Test func aShortLastRowIsShownPartly() throws {
        let short = GalleryLayout(itemCount: 10, columns: 4, rows: 2)
        #expect(short.lastTopRow == 1)
        #expect(short.visibleRange(topRow: 1) == 4..<10)
        let position = try #require(short.position(ofItem: 9, topRow: 1))
        #expect(position == (1, 1))
        #expect(short.position(ofItem: 3, topRow: 1) == nil)
    }

    @Test func thePrefetchWindowIsTheNextScreenInTheScrollingDirection() {
        #expect(layout.prefetchRange(topRow: 10, forward: true) == 52..<64)
        #expect(layout.prefetchRange(topRow: 10, forward: false) == 28..<40)
        #expect(layout.prefetchRange(topRow: 247, forward: true).isEmpty)
        #expect(layout.prefetchRange(topRow: 1, forward: false) == 0..<4)
        let two = GalleryLayout(itemCount: 1000, columns: 4, rows: 3, prefetchScreens: 2)
        #expect(two.prefetchRange(topRow: 0, forward: true) == 12..<36)
    }

    @Test func scrollingOneRowReusesOnlyTheCellsOfTheRowThatLeft() {
        let before = layout.visibleRange(topRow: 5).map(layout.cellIndex(forItem:))
        let after = layout.visibleRange(topRow: 6).map(layout.cellIndex(forItem:))
        #expect(Set(before) == Set(0..<12))
        #expect(Set(after) == Set(0..<12))
        let stayed = Set(layout.visibleRange(topRow: 5)).intersection(layout.visibleRange(topRow: 6))
        #expect(stayed.count == 8)
        let reused = Set(after.suffix(4))
        #expect(reused == Set(before.prefix(4)))
    }
}
