import WebImageCore
/// Where a GIF image lies on the canvas and the colours its indices stand for.
struct GIFFrameDescriptor {
    /// The left edge on the canvas, as the file declares it (the rectangle may reach
    /// past the canvas).
    var left: Int
    /// The top edge on the canvas.
    var top: Int
    /// The width in pixels: the length of every row of indices.
    var width: Int
    /// The height in pixels: the number of rows.
    var height: Int
    /// Whether the rows come in the four interlaced passes.
    var isInterlaced: Bool
    /// 256 opaque RGBA colours packed as little-endian `UInt32`, one per index; indices
    /// past the colour map (or every index, without any map) are transparent black (0).
    var colorTable: [UInt32]

    /// The rectangle the image covers on the canvas, as the file declares it.
    var area: (columns: Range<Int>, rows: Range<Int>) {
        (left..<left + max(0, width), top..<top + max(0, height))
    }

    /// The rows of the image in the order they are stored: top to bottom, or by pass
    /// when interlaced (rows 0, 8, 16…, then 4, 12…, then 2, 6…, then 1, 3…).
    var storedRowOrder: [Int] {
        guard isInterlaced else { return Array(0..<height) }
        return [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { start, step in
            stride(from: start, to: height, by: step)
        }
    }
}
