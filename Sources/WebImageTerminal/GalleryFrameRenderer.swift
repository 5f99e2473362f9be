import WebImage
/// Draws a ``GalleryModel`` as terminal text: a grid of cells, each an image above a
/// caption (spinner, item number, where the image came from), and a status line.
///
/// With ``TerminalGraphics/halfBlocks`` the images are part of the text lines. With the
/// pixel protocols the lines leave the image areas blank and ``imageOverlay(for:firstLine:)``
/// places the images over them.
public struct GalleryFrameRenderer: Sendable {
    /// How images are drawn.
    public var images: TerminalImageRenderer
    /// A cell's width in characters, the gap to the next cell included.
    public var cellColumns: Int
    /// A cell's image height in text rows (the caption takes one more).
    public var imageRows: Int

    /// Creates a renderer for cells of `cellColumns` × (`imageRows` + 1) characters.
    public init(images: TerminalImageRenderer = TerminalImageRenderer(), cellColumns: Int, imageRows: Int) {
        self.images = images
        self.cellColumns = max(4, cellColumns)
        self.imageRows = max(1, imageRows)
    }

    /// Text rows a cell takes: its image and its caption.
    public var cellRows: Int { imageRows + 1 }

    /// The frame's text lines: `model.layout.rows` rows of cells, then the status line.
    /// `tick` advances the spinners.
    public func lines(for model: GalleryModel, tick: Int = 0) -> [String] {
        let layout = model.layout
        let topRow = model.topRow
        let visible = layout.visibleRange(topRow: topRow)
        var lines: [String] = []
        lines.reserveCapacity(layout.rows * cellRows + 1)
        for row in 0..<layout.rows {
            var rowLines = [String](repeating: "", count: cellRows)
            for column in 0..<layout.columns {
                let item = (topRow + row) * layout.columns + column
                let block = visible.contains(item) ? cellBlock(model.cells[layout.cellIndex(forItem: item)], item: item, tick: tick) : emptyBlock
                for index in 0..<cellRows {
                    rowLines[index] += block[index]
                }
            }
            lines += rowLines
        }
        lines.append(statusLine(for: model))
        return lines
    }

    /// The status line: the items on screen, the load counters and, in a gallery that plays
    /// animations, how many play.
    public func statusLine(for model: GalleryModel) -> String {
        let visible = model.visibleRange
        let range = visible.isEmpty ? "no items" : "items \(visible.lowerBound + 1)–\(visible.upperBound) of \(model.urls.count)"
        let playing = model.playsAnimations ? " · playing \(model.playingItems.count)" : ""
        return "\(range) · \(model.statistics.summary)\(playing)"
    }

    /// For the pixel protocols: the escape sequences that draw each visible image over its
    /// cell, the grid's top line being screen line `firstLine` (1-based). Empty for half blocks.
    public func imageOverlay(for model: GalleryModel, firstLine: Int = 1) -> String {
        guard images.graphics != .halfBlocks else { return "" }
        var output = images.graphics == .kitty ? "\u{1B}_Ga=d,q=2\u{1B}\\" : ""
        let layout = model.layout
        let topRow = model.topRow
        for item in layout.visibleRange(topRow: topRow) {
            let cell = model.cells[layout.cellIndex(forItem: item)]
            guard cell.item == item, let image = cell.image,
                let position = layout.position(ofItem: item, topRow: topRow)
            else { continue }
            let line = firstLine + position.row * cellRows
            let column = 1 + position.column * cellColumns
            output += "\u{1B}[\(line);\(column)H" + images.render(image, columns: cellColumns - 1, rows: imageRows).joined()
        }
        return output
    }

    private var emptyBlock: [String] {
        [String](repeating: String(repeating: " ", count: cellColumns), count: cellRows)
    }

    private func cellBlock(_ cell: GalleryCell, item: Int, tick: Int) -> [String] {
        let width = cellColumns - 1
        var block: [String] = []
        if images.graphics == .halfBlocks, cell.item == item, let image = cell.image {
            let drawnWidth = images.cellSize(of: image, columns: width, rows: imageRows).columns
            let padding = String(repeating: " ", count: cellColumns - drawnWidth)
            block = images.render(image, columns: width, rows: imageRows).map { $0 + padding }
        }
        let blank = String(repeating: " ", count: cellColumns)
        while block.count < imageRows {
            block.append(blank)
        }
        block.append(fitted(caption(cell, item: item, tick: tick), width: width) + " ")
        return block
    }

    private func caption(_ cell: GalleryCell, item: Int, tick: Int) -> String {
        let number = "#\(item + 1)"
        guard cell.item == item, let response = cell.response else {
            return "\(cell.activityIndicator.symbol(tick: tick)) \(number)"
        }
        if let error = response.error {
            return "✗ \(number) \(error.statusCode.map { String($0) } ?? error.code.rawValue)"
        }
        switch response.cacheType {
        case .memory: return "● \(number) memory"
        case .disk: return "● \(number) disk"
        default: return "● \(number) network"
        }
    }

    private func fitted(_ text: String, width: Int) -> String {
        text.count >= width ? String(text.prefix(width)) : text + String(repeating: " ", count: width - text.count)
    }
}
