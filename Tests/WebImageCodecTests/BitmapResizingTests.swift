import Testing
@testable import WebImageCore
import WebImageCoders
import WebImageTestSupport

@Suite struct BitmapResizingTests {
    /// A checkerboard of one-pixel black and white squares must average to grey, not
    /// alias into stripes as nearest-neighbour sampling would.
    @Test func shrinkingAveragesFineDetail() throws {
        let size = 64
        var board = Bitmap(width: size, height: size)
        for y in 0..<size {
            for x in 0..<size {
                let value: UInt8 = (x + y) % 2 == 0 ? 255 : 0
                let offset = (y * size + x) * 4
                board.pixels[offset..<offset + 4] = [value, value, value, 255]
            }
        }
        let small = try board.resized(to: PixelSize(width: 7, height: 5))
        #expect(small.size == PixelSize(width: 7, height: 5))
        for y in 0..<5 {
            for x in 0..<7 {
                let pixel = small.rgba8(x: x, y: y)
                #expect(abs(Int(pixel.red) - 128) <= 12, "(\(x),\(y)) = \(pixel)")
                #expect(pixel.alpha == 255)
            }
        }
    }

    /// Transparent pixels carry no colour into their neighbours.
    @Test func transparentPixelsDoNotDarkenEdges() throws {
        var bitmap = Bitmap(width: 2, height: 1)
        bitmap.pixels = [255, 0, 0, 255, 0, 0, 0, 0]
        let merged = try bitmap.resized(to: PixelSize(width: 1, height: 1))
        #expect(merged.rgba8(x: 0, y: 0) == RGBA8(red: 255, green: 0, blue: 0, alpha: 128))
    }

    @Test func enlargingInterpolatesBetweenNeighbours() throws {
        var bitmap = Bitmap(width: 2, height: 1)
        bitmap.pixels = [0, 0, 0, 255, 200, 200, 200, 255]
        let wide = try bitmap.resized(to: PixelSize(width: 8, height: 1))
        let reds = (0..<8).map { Int(wide.rgba8(x: $0, y: 0).red) }
        #expect(reds.first! <= 5 && reds.last! >= 195)
        #expect(zip(reds, reds.dropFirst()).allSatisfy { $0 <= $1 }, "\(reds)")
        #expect(reds[3] > 50 && reds[4] < 150)
    }

    @Test func sixteenBitBitmapsStaySixteenBit() throws {
        var bitmap = Bitmap(width: 2, height: 2, pixelFormat: .rgba16)
        let value: [UInt16] = [1000, 2000, 3000, 65535]
        bitmap.pixels = (0..<4).flatMap { _ in value.flatMap { v in withUnsafeBytes(of: v) { Array($0) } } }
        let one = try bitmap.resized(to: PixelSize(width: 1, height: 1))
        #expect(one.pixelFormat == .rgba16)
        let channels = one.pixels.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
        #expect(channels == value)
    }

    @Test func resizingToTheSameSizeKeepsThePixels() throws {
        var bitmap = Bitmap(width: 3, height: 2)
        bitmap.pixels = (0..<24).map { UInt8($0 * 10) }
        #expect(try bitmap.resized(to: bitmap.size) == bitmap)
    }

    /// Running out of memory is an error a server answers, not a trap that ends the
    /// process: a size whose bytes overflow, and one larger than any machine's memory,
    /// are refused before anything is allocated.
    @Test func aSizeNoMemoryCanHoldThrowsInsteadOfTrapping() {
        let bitmap = Bitmap(width: 2, height: 2)
        for size in [PixelSize(width: 1 << 40, height: 1 << 40), PixelSize(width: 1_000_000, height: 1_000_000)] {
            #expect(throws: ImageError.self, "\(size)") { try bitmap.resized(to: size) }
            do {
                _ = try bitmap.resized(to: size)
            } catch {
                #expect(error.code == .imageTooLarge)
            }
        }
    }

    /// The scratch between the two passes is refused the same way: a tall strip widened
    /// to a wide one would hold every source row at the destination's width.
    @Test func scratchNoMemoryCanHoldThrowsInsteadOfTrapping() {
        #expect(Bitmap.resamplingScratchPixels(from: PixelSize(width: 1 << 40, height: 1 << 40), to: PixelSize(width: 1 << 40, height: 1 << 40)) == Int.max)
        #expect(throws: ImageError.self) { try FloatPixelMemory.allocate(Int.max / 8) }
        #expect(throws: ImageError.self) { try FloatPixelMemory.allocate(FloatPixelMemory.largestBuffer / 16 + 1) }
        let buffer = try? FloatPixelMemory.allocate(4)
        #expect(buffer != nil)
        buffer.map(FloatPixelMemory.deallocate)
    }

    /// Columns-first resizing walks each band of output rows down a ring of resampled
    /// source rows instead of holding every source row between two whole passes; its pixels
    /// must be those of the two whole passes, bit for bit — shrinking and enlarging, opaque
    /// and transparent, 8- and 16-bit, and large enough to be split over the cores.
    @Test(arguments: [
        (PixelSize(width: 754, height: 425), PixelSize(width: 533, height: 300), PixelFormat.rgba8, false),
        (PixelSize(width: 1200, height: 900), PixelSize(width: 97, height: 61), .rgba8, true),
        (PixelSize(width: 300, height: 200), PixelSize(width: 1100, height: 700), .rgba8, true),
        (PixelSize(width: 640, height: 480), PixelSize(width: 320, height: 481), .rgba16, true),
        (PixelSize(width: 31, height: 17), PixelSize(width: 5, height: 3), .rgba8, false),
    ])
    func theRingGivesTheTwoWholePassesPixels(source: PixelSize, destination: PixelSize, format: PixelFormat, transparent: Bool) throws {
        var generator = SeededGenerator(seed: UInt64(source.width * 7919 + destination.height))
        let byteCount = source.width * source.height * format.bytesPerPixel
        var pixels = (0..<byteCount).map { _ in UInt8.random(in: 0...255, using: &generator) }
        if !transparent {
            let channel = format.bytesPerPixel / 4
            for pixel in 0..<source.width * source.height {
                for byte in 0..<channel { pixels[(pixel * 4 + 3) * channel + byte] = 0xFF }
            }
        }
        let bitmap = Bitmap(width: source.width, height: source.height, pixelFormat: format, pixels: pixels)
        #expect(!Bitmap.resamplesRowsFirst(from: source, to: destination))
        #expect(bitmap.containsTransparency == transparent)
        let resized = try bitmap.resized(to: destination)
        #expect(resized.pixels == Self.twoWholePasses(bitmap, to: destination), "\(source) → \(destination)")
        let held = ResamplingWeights(source: source.height, destination: destination.height).widestSpan
        #expect(held <= ResamplingWeights.widestSpanBound(source: source.height, destination: destination.height))
    }

    /// Resizing as it was done before the ring: every source row resampled along x into one
    /// whole intermediate, then each output row blended from it along y.
    private static func twoWholePasses(_ bitmap: Bitmap, to size: PixelSize) -> [UInt8] {
        let columns = ResamplingWeights(source: bitmap.width, destination: size.width)
        let rows = ResamplingWeights(source: bitmap.height, destination: size.height)
        let premultiplying = bitmap.containsTransparency
        var intermediate = [SIMD4<Float>](repeating: .zero, count: bitmap.height * size.width)
        var sourceRow = [SIMD4<Float>](repeating: .zero, count: bitmap.width)
        var row = [SIMD4<Float>](repeating: .zero, count: size.width)
        var output = [UInt8](repeating: 0, count: size.width * size.height * bitmap.pixelFormat.bytesPerPixel)
        bitmap.pixels.withUnsafeBytes { source in
            for y in 0..<bitmap.height {
                sourceRow.withUnsafeMutableBufferPointer { sourceRow in
                    Bitmap.unpackRow(
                        y, of: source.baseAddress!, width: bitmap.width, format: bitmap.pixelFormat, into: sourceRow.baseAddress!,
                        premultiplying: premultiplying)
                    intermediate.withUnsafeMutableBufferPointer { intermediate in
                        Bitmap.resample(sourceRow.baseAddress!, with: columns, into: intermediate.baseAddress! + y * size.width)
                    }
                }
            }
        }
        for y in 0..<size.height {
            let start = rows.weightStart[y], end = rows.weightStart[y + 1], first = rows.firstSource[y]
            for x in 0..<size.width { row[x] = intermediate[first * size.width + x] * rows.weights[start] }
            for tap in start + 1..<end {
                for x in 0..<size.width { row[x] += intermediate[(first + tap - start) * size.width + x] * rows.weights[tap] }
            }
            row.withUnsafeBufferPointer { row in
                output.withUnsafeMutableBytes { output in
                    Bitmap.packRow(
                        row.baseAddress!, width: size.width, premultiplied: premultiplying, into: output.baseAddress!, y: y,
                        format: bitmap.pixelFormat)
                }
            }
        }
        return output
    }
}
