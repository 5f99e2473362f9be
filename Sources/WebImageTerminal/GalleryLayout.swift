import WebImage
/// The geometry of a scrolling grid of images: which items are on screen, which cell shows
/// each, and which items to prefetch — pure arithmetic, with no terminal involved.
///
/// Cells are reused like a table view's: item `i` is always shown by cell
/// `i % cellCount`, so scrolling by one row reuses exactly the cells of the row that left
/// the screen.
public struct GalleryLayout: Sendable, Hashable {
    /// How many items the gallery has.
    public var itemCount: Int
    /// Cells per row.
    public var columns: Int
    /// Rows on screen.
    public var rows: Int
    /// How many screens ahead (in the scrolling direction) are prefetched.
    public var prefetchScreens: Int

    /// Creates a layout; columns and rows are at least 1.
    public init(itemCount: Int, columns: Int, rows: Int, prefetchScreens: Int = 1) {
        self.itemCount = max(0, itemCount)
        self.columns = max(1, columns)
        self.rows = max(1, rows)
        self.prefetchScreens = max(0, prefetchScreens)
    }

    /// Cells on screen: the number of reusable cells.
    public var cellCount: Int { columns * rows }

    /// How many items the prefetch window holds.
    public var prefetchWindowSize: Int { cellCount * prefetchScreens }

    /// Rows the items fill.
    public var rowCount: Int { (itemCount + columns - 1) / columns }

    /// The highest row that can be at the top of the screen.
    public var lastTopRow: Int { max(0, rowCount - rows) }

    /// `row` moved into `0...lastTopRow`.
    public func clampedTopRow(_ row: Int) -> Int {
        min(max(0, row), lastTopRow)
    }

    /// The items on screen when `topRow` is the first row shown.
    public func visibleRange(topRow: Int) -> Range<Int> {
        let start = min(itemCount, clampedTopRow(topRow) * columns)
        return start..<min(itemCount, start + cellCount)
    }

    /// The items to prefetch: the screens after the visible ones when scrolling forward,
    /// before them when scrolling back.
    public func prefetchRange(topRow: Int, forward: Bool) -> Range<Int> {
        let visible = visibleRange(topRow: topRow)
        if forward {
            return visible.upperBound..<min(itemCount, visible.upperBound + prefetchWindowSize)
        }
        return max(0, visible.lowerBound - prefetchWindowSize)..<visible.lowerBound
    }

    /// The cell that shows `item`.
    public func cellIndex(forItem item: Int) -> Int {
        item % cellCount
    }

    /// Where `item` sits on screen (row and column), or `nil` when it is not visible.
    public func position(ofItem item: Int, topRow: Int) -> (row: Int, column: Int)? {
        guard visibleRange(topRow: topRow).contains(item) else { return nil }
        let offset = item - clampedTopRow(topRow) * columns
        return (offset / columns, offset % columns)
    }
}
