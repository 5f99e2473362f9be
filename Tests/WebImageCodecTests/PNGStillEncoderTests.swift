import CDeflate
import Foundation
import Testing
@testable import WebImageCore
@testable import WebImagePNG
import WebImageTestSupport

/// The PNG coder's still encoder: each row's five filter candidates as PNG defines them, the
/// smallest sum of magnitudes chosen, and files that libspng (not the coder's own inflater)
/// reads back to the same pixels whatever filters the rows took.
@Suite
struct PNGStillEncoderTests {
    let coder = PNGCoder()

    /// The five filters of one byte, from PNG's definitions.
    static func referenceFilters(raw: [UInt8], above: [UInt8], index: Int, distance: Int) -> [UInt8] {
        let left = index >= distance ? Int(raw[index - distance]) : 0
        let upper = Int(above[index])
        let upperLeft = index >= distance ? Int(above[index - distance]) : 0
        let estimate = left + upper - upperLeft
        let (toLeft, toUpper, toUpperLeft) = (abs(estimate - left), abs(estimate - upper), abs(estimate - upperLeft))
        let paeth = toLeft <= toUpper && toLeft <= toUpperLeft ? left : (toUpper <= toUpperLeft ? upper : upperLeft)
        let byte = Int(raw[index])
        return [byte, byte - left, byte - upper, byte - (left + upper) / 2, byte - paeth].map { UInt8(truncatingIfNeeded: $0) }
    }

    @Test(arguments: [3, 4, 6, 8])
    func candidatesFollowPNGsFiltersAndTheSmallestSumWins(distance: Int) {
        var generator = SeededGenerator(seed: UInt64(distance))
        let count = distance * 37
        // Rows of each kind a filter suits: noise, a ramp (sub), the row above plus a little
        // (up), the mean of left and above (average), and small values over noise (none).
        for kind in 0..<5 {
            let above = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var raw = [UInt8](repeating: 0, count: count)
            for index in 0..<count {
                let left = index >= distance ? Int(raw[index - distance]) : 0
                switch kind {
                case 0: raw[index] = UInt8.random(in: 0...255, using: &generator)
                case 1: raw[index] = UInt8(truncatingIfNeeded: index * 3)
                case 2: raw[index] = above[index] &+ UInt8.random(in: 0...2, using: &generator)
                case 3: raw[index] = UInt8((left + Int(above[index])) / 2)
                default: raw[index] = UInt8.random(in: 0...1, using: &generator)
                }
            }
            var candidates = [UInt8](repeating: 0xAA, count: 5 * count)
            let chosen = raw.withUnsafeBytes { raw in
                above.withUnsafeBytes { above in
                    candidates.withUnsafeMutableBytes { candidates in
                        PNGRowFilter.choose(
                            current: raw.baseAddress!, above: above.baseAddress!, count: count, distance: distance,
                            candidates: candidates.baseAddress!)
                    }
                }
            }
            var sums = [Int](repeating: 0, count: 5)
            for index in 0..<count {
                let expected = Self.referenceFilters(raw: raw, above: above, index: index, distance: distance)
                for type in 0..<5 {
                    #expect(candidates[type * count + index] == expected[type], "type \(type) byte \(index)")
                    sums[type] += Int(Int8(bitPattern: expected[type]).magnitude)
                }
            }
            #expect(chosen == sums.firstIndex(of: sums.min()!)!, "kind \(kind): sums \(sums)")
            if kind == 3 { #expect(chosen == 3) }
            if kind == 2 { #expect(chosen == 2) }
        }
    }

    /// A bitmap whose row bands suit different filters: noise, flat colour, horizontal and
    /// vertical ramps, a plane, and transparency that varies when `alpha`.
    static func bandedBitmap(width: Int, height: Int, sixteenBit: Bool, alpha: Bool) -> Bitmap {
        var generator = SeededGenerator(seed: 54)
        let sampleBytes = sixteenBit ? 2 : 1
        var pixels = [UInt8](repeating: 0, count: width * height * 4 * sampleBytes)
        for y in 0..<height {
            for x in 0..<width {
                for channel in 0..<4 {
                    var value: Int
                    switch (y / 8) % 5 {
                    case 0: value = Int.random(in: 0...65535, using: &generator)
                    case 1: value = 0x4080 * (channel + 1)
                    case 2: value = x * 700 + channel * 3000
                    case 3: value = y * 900 + channel * 5000
                    default: value = x * 300 + y * 500 + channel * 1000
                    }
                    if channel == 3 { value = alpha ? (x * 1000 + y * 13) : 65535 }
                    let offset = ((y * width + x) * 4 + channel) * sampleBytes
                    if sixteenBit {
                        withUnsafeBytes(of: UInt16(truncatingIfNeeded: value)) { bytes in
                            pixels[offset] = bytes[0]
                            pixels[offset + 1] = bytes[1]
                        }
                    } else {
                        pixels[offset] = UInt8(truncatingIfNeeded: value >> 8)
                    }
                }
            }
        }
        return Bitmap(width: width, height: height, pixelFormat: sixteenBit ? .rgba16 : .rgba8, pixels: pixels)
    }

    @Test(arguments: [false, true])
    func eightBitFilesReadBackThroughLibspng(alpha: Bool) throws {
        let bitmap = Self.bandedBitmap(width: 97, height: 80, sixteenBit: false, alpha: alpha)
        let data = try coder.encode(Image(bitmap: bitmap), as: .png, options: ImageEncodeOptions())
        let filterTypes = try Self.filterTypes(of: data, rowBytes: 97 * (alpha ? 4 : 3), rows: 80)
        #expect(Set(filterTypes).count >= 3, "filter types used: \(Set(filterTypes).sorted())")
        #expect(try PNGTruecolorRowsTests.libspngPixels(data).get() == bitmap.pixels)
    }

    @Test(arguments: [false, true])
    func sixteenBitFilesReadBackTheSameSamples(alpha: Bool) throws {
        let bitmap = Self.bandedBitmap(width: 61, height: 40, sixteenBit: true, alpha: alpha)
        let data = try coder.encode(Image(bitmap: bitmap), as: .png, options: ImageEncodeOptions())
        #expect(try coder.decode(data, options: ImageDecodeOptions()).bitmap == bitmap)
    }

    @Test func imageDataOverFourMebibytesIsOneChunkLibspngReads() throws {
        var generator = SeededGenerator(seed: 7)
        let noise = (0..<(1200 * 1000 * 4)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let bitmap = Bitmap(width: 1200, height: 1000, pixels: noise)
        let data = try coder.encode(Image(bitmap: bitmap), as: .png, options: ImageEncodeOptions())
        #expect(data.count > 4 << 20)
        #expect(try PNGTruecolorRowsTests.libspngPixels(data).get() == noise)
    }

    /// Each row's filter type, from the file's inflated image data.
    static func filterTypes(of data: Data, rowBytes: Int, rows: Int) throws -> [UInt8] {
        let stream = try data.withImageBytes { bytes throws(ImageError) -> [UInt8] in
            var reader = try PNGChunkReader(bytes)
            var stream: [UInt8] = []
            while let chunk = try reader.next() {
                if chunk.type == .imageData { stream += bytes[chunk.data] }
            }
            return stream
        }
        var inflated = [UInt8](repeating: 0, count: rows * (1 + rowBytes))
        let result = stream.withUnsafeBytes { input in
            inflated.withUnsafeMutableBytes { output in
                let decompressor = libdeflate_alloc_decompressor()
                defer { libdeflate_free_decompressor(decompressor) }
                return libdeflate_zlib_decompress(decompressor, input.baseAddress, input.count, output.baseAddress, output.count, nil)
            }
        }
        #expect(result == LIBDEFLATE_SUCCESS)
        return (0..<rows).map { inflated[$0 * (1 + rowBytes)] }
    }
}
