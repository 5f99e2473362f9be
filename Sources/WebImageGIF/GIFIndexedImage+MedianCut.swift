import WebImageCore
extension GIFIndexedImage {
    /// A box of colour-histogram cells that median cut splits.
    private struct ColorBox {
        var cells: ArraySlice<Int>
        var population: Int
    }

    /// Reduces the opaque colours to `maximumColors` by median cut over a 15-bit
    /// histogram, writes each opaque pixel's index and returns the palette (packed RGB).
    static func indexByMedianCut(
        _ source: UnsafeBufferPointer<UInt8>,
        into output: UnsafeMutableBufferPointer<UInt8>,
        maximumColors: Int
    ) -> [UInt32] {
        var counts = [Int](repeating: 0, count: 1 << 15)
        var sums = [Int](repeating: 0, count: 3 << 15)
        for pixel in 0..<output.count where source[pixel * 4 + 3] >= 128 {
            let cell = cellIndex(source, pixel: pixel)
            counts[cell] += 1
            sums[cell * 3] += Int(source[pixel * 4])
            sums[cell * 3 + 1] += Int(source[pixel * 4 + 1])
            sums[cell * 3 + 2] += Int(source[pixel * 4 + 2])
        }
        var cells = (0..<(1 << 15)).filter { counts[$0] > 0 }
        var boxes = [ColorBox(cells: cells[...], population: cells.reduce(0) { $0 + counts[$1] })]
        while boxes.count < maximumColors {
            guard let (boxIndex, channel) = widestBox(boxes) else { break }
            let box = boxes[boxIndex]
            let range = box.cells.startIndex..<box.cells.endIndex
            cells[range].sort { channelValue($0, channel) < channelValue($1, channel) }
            var seen = 0
            var split = range.lowerBound + 1
            for position in range.dropLast() {
                seen += counts[cells[position]]
                split = position + 1
                if seen * 2 >= box.population { break }
            }
            let lower = cells[range.lowerBound..<split]
            let upper = cells[split..<range.upperBound]
            boxes[boxIndex] = ColorBox(cells: lower, population: lower.reduce(0) { $0 + counts[$1] })
            boxes.append(ColorBox(cells: upper, population: upper.reduce(0) { $0 + counts[$1] }))
        }
        var cellToIndex = [UInt8](repeating: 0, count: 1 << 15)
        var palette: [UInt32] = []
        for (index, box) in boxes.enumerated() where box.population > 0 {
            var red = 0, green = 0, blue = 0
            for cell in box.cells {
                red += sums[cell * 3]
                green += sums[cell * 3 + 1]
                blue += sums[cell * 3 + 2]
                cellToIndex[cell] = UInt8(index)
            }
            let average = { (sum: Int) in UInt32(sum / box.population) }
            palette.append(average(red) | average(green) << 8 | average(blue) << 16)
        }
        for pixel in 0..<output.count where source[pixel * 4 + 3] >= 128 {
            output[pixel] = cellToIndex[cellIndex(source, pixel: pixel)]
        }
        return palette.isEmpty ? [0] : palette
    }

    /// The box with the widest extent along one channel (weighted by its pixel count),
    /// and that channel; `nil` when no box holds more than one cell.
    private static func widestBox(_ boxes: [ColorBox]) -> (Int, Int)? {
        var best: (score: Int, box: Int, channel: Int)?
        for (index, box) in boxes.enumerated() where box.cells.count > 1 {
            for channel in 0..<3 {
                var low = Int.max, high = Int.min
                for cell in box.cells {
                    let value = channelValue(cell, channel)
                    low = min(low, value)
                    high = max(high, value)
                }
                let score = (high - low) * box.population
                if high > low, score > (best?.score ?? -1) { best = (score, index, channel) }
            }
        }
        return best.map { ($0.box, $0.channel) }
    }

    /// The 5-bit value of `channel` (0 red, 1 green, 2 blue) in a histogram cell.
    private static func channelValue(_ cell: Int, _ channel: Int) -> Int {
        (cell >> (10 - channel * 5)) & 0x1F
    }

    /// The histogram cell of a pixel: 5 bits each of red, green and blue.
    private static func cellIndex(_ source: UnsafeBufferPointer<UInt8>, pixel: Int) -> Int {
        let offset = pixel * 4
        return Int(source[offset] >> 3) << 10 | Int(source[offset + 1] >> 3) << 5 | Int(source[offset + 2] >> 3)
    }
}
