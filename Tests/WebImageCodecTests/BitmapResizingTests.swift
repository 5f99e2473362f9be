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
}
