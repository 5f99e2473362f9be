import WebImage
/// Draws an `Image` into a rectangle of terminal cells.
///
/// The image is fitted inside `columns` × `rows` cells keeping its aspect ratio (a cell is
/// taken to be twice as tall as it is wide), resampled with `Bitmap.resized(to:)` and
/// composed over ``background`` where it is transparent. The result is the escape
/// sequences to print, one string per cell row for ``TerminalGraphics/halfBlocks`` (so a
/// caller can position each row), or a single string for the pixel protocols.
public struct TerminalImageRenderer: Sendable {
    /// The protocol to draw with.
    public var graphics: TerminalGraphics
    /// Pixels per cell for the pixel protocols (kitty, sixel): width and height.
    public var cellPixelSize: PixelSize
    /// The colour under transparent pixels.
    public var background: RGBA8

    /// Creates a renderer.
    public init(
        graphics: TerminalGraphics = .halfBlocks,
        cellPixelSize: PixelSize = PixelSize(width: 10, height: 20),
        background: RGBA8 = RGBA8(red: 0, green: 0, blue: 0)
    ) {
        self.graphics = graphics
        self.cellPixelSize = cellPixelSize
        self.background = background
    }

    /// The size in cells that `image` takes when fitted inside `columns` × `rows`.
    public func cellSize(of image: Image, columns: Int, rows: Int) -> (columns: Int, rows: Int) {
        let pixels = fittedPixelSize(of: image.pixelSize, columns: columns, rows: rows, pixelsPerCell: PixelSize(width: 1, height: 2))
        return (pixels.width, (pixels.height + 1) / 2)
    }

    /// The escape sequences that draw `image` (its first frame, or `frame`) in at most
    /// `columns` × `rows` cells, as lines to print one under the other; none when the
    /// picture cannot be resampled to the cells (its scratch would not fit in memory).
    public func render(_ image: Image, frame: Int = 0, columns: Int, rows: Int) -> [String] {
        guard columns > 0, rows > 0 else { return [] }
        let bitmap = image.frames[min(max(0, frame), image.frames.count - 1)].bitmap
        switch graphics {
        case .halfBlocks:
            let size = fittedPixelSize(of: bitmap.size, columns: columns, rows: rows, pixelsPerCell: PixelSize(width: 1, height: 2))
            guard let picture = try? bitmap.resized(to: size).convertedToRGBA8() else { return [] }
            return halfBlockLines(flattened(picture))
        case .kitty:
            let size = fittedPixelSize(of: bitmap.size, columns: columns, rows: rows, pixelsPerCell: cellPixelSize)
            let cells = cellSize(forPixels: size)
            guard let picture = try? bitmap.resized(to: size).convertedToRGBA8() else { return [] }
            return [KittyGraphicsEncoder.encode(picture, columns: cells.columns, rows: cells.rows)]
        case .sixel:
            let size = fittedPixelSize(of: bitmap.size, columns: columns, rows: rows, pixelsPerCell: cellPixelSize)
            guard let picture = try? bitmap.resized(to: size).convertedToRGBA8() else { return [] }
            return [SixelEncoder.encode(flattened(picture))]
        }
    }

    private func cellSize(forPixels size: PixelSize) -> (columns: Int, rows: Int) {
        (
            (size.width + cellPixelSize.width - 1) / cellPixelSize.width,
            (size.height + cellPixelSize.height - 1) / cellPixelSize.height
        )
    }

    private func fittedPixelSize(of source: PixelSize, columns: Int, rows: Int, pixelsPerCell: PixelSize) -> PixelSize {
        let box = PixelSize(width: columns * pixelsPerCell.width, height: rows * pixelsPerCell.height)
        let ratio = min(Double(box.width) / Double(source.width), Double(box.height) / Double(source.height))
        return PixelSize(
            width: max(1, min(box.width, Int((Double(source.width) * ratio).rounded()))),
            height: max(1, min(box.height, Int((Double(source.height) * ratio).rounded())))
        )
    }

    /// Composes the pixels over ``background`` so that every alpha is 255.
    private func flattened(_ bitmap: Bitmap) -> Bitmap {
        var output = bitmap
        output.pixels.withUnsafeMutableBufferPointer { pixels in
            var index = 0
            while index < pixels.count {
                let alpha = UInt32(pixels[index + 3])
                if alpha != 255 {
                    let under = [background.red, background.green, background.blue]
                    for channel in 0..<3 {
                        let over = UInt32(pixels[index + channel]) * alpha + UInt32(under[channel]) * (255 - alpha)
                        pixels[index + channel] = UInt8((over + 127) / 255)
                    }
                    pixels[index + 3] = 255
                }
                index += 4
            }
        }
        return output
    }

    /// Two pixel rows per text row: `▀` with the upper pixel as foreground colour and the
    /// lower one as background; an odd last row gets the background colour below it.
    private func halfBlockLines(_ bitmap: Bitmap) -> [String] {
        var lines: [String] = []
        lines.reserveCapacity((bitmap.height + 1) / 2)
        var y = 0
        while y < bitmap.height {
            var line = ""
            var previous: (RGBA8, RGBA8)?
            for x in 0..<bitmap.width {
                let top = bitmap.rgba8(x: x, y: y)
                let bottom = y + 1 < bitmap.height ? bitmap.rgba8(x: x, y: y + 1) : background
                if previous?.0 != top || previous?.1 != bottom {
                    line += "\u{1B}[38;2;\(top.red);\(top.green);\(top.blue);48;2;\(bottom.red);\(bottom.green);\(bottom.blue)m"
                    previous = (top, bottom)
                }
                line += "▀"
            }
            lines.append(line + "\u{1B}[0m")
            y += 2
        }
        return lines
    }
}
