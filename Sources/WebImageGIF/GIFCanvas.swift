import WebImageCore
/// The RGBA canvas a GIF animation is composed on, frame after frame, following each
/// frame's disposal method.
struct GIFCanvas {
    let width: Int
    let height: Int
    /// The composed pixels, RGBA8, transparent where nothing was drawn.
    private(set) var pixels: [UInt8]
    /// The canvas as it was before a frame whose disposal restores it.
    private var savedPixels: [UInt8]?

    /// A transparent canvas; the caller has checked `size` against its limits. Throws
    /// ``ImageError/Code/imageTooLarge`` when its pixels cannot be had.
    init(size: PixelSize) throws(ImageError) {
        width = size.width
        height = size.height
        pixels = try [UInt8](repeating: 0, imageSized: size.width, size.height, 4)
    }

    /// Draws the current frame of `reader` over the canvas; transparent and out-of-range
    /// indices leave the canvas as it was. Parts outside the canvas are clipped.
    ///
    /// - Parameter rowsDrawn: counts the rows decoded, also when decoding fails midway.
    mutating func draw(
        _ frame: GIFFrameDescriptor,
        control: GIFGraphicControl,
        from reader: GIFReader,
        rowsDrawn: inout Int
    ) throws(ImageError) {
        if control.disposal == .previous { savedPixels = pixels }
        let columns = clippedColumns(of: frame)
        guard !columns.isEmpty, frame.top < height, frame.top + frame.height > 0 else {
            return try reader.skipPixels()
        }
        var colors = frame.colorTable
        if let transparent = control.transparentIndex { colors[transparent] = 0 }
        let canvasWidth = width, canvasHeight = height
        var rows = 0
        defer { rowsDrawn = rows }
        let outcome = pixels.withUnsafeMutableBytes { canvas in
            colors.withUnsafeBufferPointer { table in
                Result { () throws(ImageError) in
                    guard let canvasBase = canvas.baseAddress else { return }
                    try reader.readRows(of: frame) { row, indices in
                        rows += 1
                        let y = frame.top + row
                        guard y >= 0, y < canvasHeight else { return }
                        var destination = canvasBase + (y * canvasWidth + columns.lowerBound) * 4
                        for x in (columns.lowerBound - frame.left)..<(columns.upperBound - frame.left) {
                            let color = table[Int(indices[x])]
                            if color != 0 { destination.storeBytes(of: color, as: UInt32.self) }
                            destination += 4
                        }
                    }
                }
            }
        }
        try outcome.get()
    }

    /// Applies `control`'s disposal to the area `frame` covered, ready for the next frame.
    mutating func dispose(_ frame: GIFFrameDescriptor, control: GIFGraphicControl) {
        switch control.disposal {
        case .keep:
            break
        case .background:
            let columns = clippedColumns(of: frame)
            let rows = max(0, frame.top)..<min(height, max(0, frame.top + frame.height))
            guard !columns.isEmpty, !rows.isEmpty else { return }
            let canvasWidth = width
            pixels.withUnsafeMutableBytes { canvas in
                for y in rows {
                    let start = (y * canvasWidth + columns.lowerBound) * 4
                    canvas[start..<start + columns.count * 4].initializeMemory(as: UInt8.self, repeating: 0)
                }
            }
        case .previous:
            if let savedPixels { pixels = savedPixels }
            savedPixels = nil
        }
    }

    private func clippedColumns(of frame: GIFFrameDescriptor) -> Range<Int> {
        let start = min(max(frame.left, 0), width)
        let end = max(start, min(frame.left + frame.width, width))
        return start..<end
    }
}
