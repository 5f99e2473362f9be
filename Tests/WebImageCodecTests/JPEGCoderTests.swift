import CJPEG
import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
@testable import WebImageJPEG
import WebImageTestSupport

/// The JPEG coder on inputs the tests make themselves (the corpora live in
/// `JPEGCoderCorpusTests`).
@Suite struct JPEGCoderTests {
    let coder = JPEGCoder()

    // MARK: - Fixtures

    /// A smooth gradient (JPEG keeps it well): red grows to the right, green downwards.
    static func gradient(width: Int, height: Int, alpha: UInt8 = 255) -> Bitmap {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let index = (y * width + x) * 4
                pixels[index] = UInt8(x * 255 / max(1, width - 1))
                pixels[index + 1] = UInt8(y * 255 / max(1, height - 1))
                pixels[index + 2] = 128
                pixels[index + 3] = alpha
            }
        }
        return Bitmap(width: width, height: height, pixels: pixels)
    }

    /// The mean absolute difference of the colour channels of two bitmaps of one size.
    static func meanDifference(_ first: Bitmap, _ second: Bitmap) -> Double {
        precondition(first.size == second.size && first.pixelFormat == .rgba8 && second.pixelFormat == .rgba8)
        var total = 0
        for index in stride(from: 0, to: first.pixels.count, by: 4) {
            for channel in 0..<3 {
                total += abs(Int(first.pixels[index + channel]) - Int(second.pixels[index + channel]))
            }
        }
        return Double(total) / Double(first.width * first.height * 3)
    }

    /// Whether two pixels differ by at most `tolerance` in every colour channel.
    static func isClose(_ pixel: RGBA8, _ expected: RGBA8, tolerance: Int = 12) -> Bool {
        abs(Int(pixel.red) - Int(expected.red)) <= tolerance
            && abs(Int(pixel.green) - Int(expected.green)) <= tolerance
            && abs(Int(pixel.blue) - Int(expected.blue)) <= tolerance
    }

    func encoded(_ bitmap: Bitmap, quality: Double = 0.9) throws -> Data {
        try coder.encode(Image(bitmap: bitmap), as: .jpeg, options: ImageEncodeOptions(quality: quality))
    }

    // MARK: - Recognition

    @Test func recognisesJPEGOnly() throws {
        let jpeg = try encoded(Self.gradient(width: 8, height: 8))
        #expect(coder.canDecode(jpeg))
        #expect(coder.canDecodeIncrementally(jpeg))
        #expect(!coder.canDecode(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])))
        #expect(!coder.canDecode(Data()))
        #expect(coder.canEncode(to: .jpeg))
        #expect(!coder.canEncode(to: .png))
    }

    // MARK: - Round trips

    @Test func roundTripKeepsPixelsAndDescribesTheImage() throws {
        let original = Self.gradient(width: 67, height: 41)
        let image = try coder.decode(try encoded(original), options: ImageDecodeOptions(scaleFactor: 2))
        #expect(image.pixelSize == PixelSize(width: 67, height: 41))
        #expect(image.format == .jpeg)
        #expect(image.bitmap.pixelFormat == .rgba8)
        #expect(image.frames.count == 1)
        #expect(image.loopCount == 0)
        #expect(image.scale == 2)
        #expect(!image.hasAlpha)
        #expect(image.orientation == .up)
        #expect(Self.meanDifference(image.bitmap, original) < 2)
        #expect(image.bitmap.rgba8(x: 66, y: 40).alpha == 255)
    }

    @Test func lowerQualityMakesSmallerFiles() throws {
        let original = Self.gradient(width: 128, height: 128)
        let small = try encoded(original, quality: 0.1)
        let large = try encoded(original, quality: 1)
        #expect(small.count < large.count)
        let decoded = try coder.decode(small, options: ImageDecodeOptions())
        #expect(Self.meanDifference(decoded.bitmap, original) < 8)
    }

    @Test func encodesSixteenBitImages() throws {
        let narrow = Self.gradient(width: 16, height: 16)
        var wide = [UInt8](repeating: 0, count: narrow.pixels.count * 2)
        for (index, value) in narrow.pixels.enumerated() {
            let widened = UInt16(value) * 257
            wide[index * 2] = UInt8(widened & 0xFF)
            wide[index * 2 + 1] = UInt8(widened >> 8)
        }
        let bitmap = Bitmap(width: 16, height: 16, pixelFormat: .rgba16, pixels: wide)
        let decoded = try coder.decode(try encoded(bitmap), options: ImageDecodeOptions())
        #expect(Self.meanDifference(decoded.bitmap, narrow) < 2)
    }

    @Test func compositesTransparencyOverWhite() throws {
        var bitmap = Bitmap(width: 32, height: 16)
        for y in 0..<16 {
            for x in 16..<32 {
                let index = (y * 32 + x) * 4
                bitmap.pixels[index] = 255
                bitmap.pixels[index + 3] = 255
            }
        }
        let decoded = try coder.decode(try encoded(bitmap), options: ImageDecodeOptions()).bitmap
        #expect(Self.isClose(decoded.rgba8(x: 4, y: 8), RGBA8(red: 255, green: 255, blue: 255)))
        #expect(Self.isClose(decoded.rgba8(x: 28, y: 8), RGBA8(red: 255, green: 0, blue: 0)))
    }

    @Test func refusesOtherFormatsAndEmptyImages() throws {
        let image = Image(bitmap: Self.gradient(width: 4, height: 4))
        #expect(throws: ImageError(.unsupportedFormat, "the JPEG coder cannot write png")) {
            try coder.encode(image, as: .png, options: ImageEncodeOptions())
        }
        let empty = Image(bitmap: Bitmap(width: 0, height: 0))
        let error = #expect(throws: ImageError.self) {
            try coder.encode(empty, as: .jpeg, options: ImageEncodeOptions())
        }
        #expect(error?.code == .encodingFailed)
    }

    // MARK: - CMYK

    /// A 64×16 YCCK JPEG of four 16×16 blocks, compressed by TurboJPEG from the CMYK
    /// values given (TurboJPEG writes an Adobe segment, so the values count as inverted).
    static func cmykJPEG(blocks: [[UInt8]]) throws -> Data {
        var pixels = [UInt8]()
        for _ in 0..<16 {
            for block in blocks {
                for _ in 0..<16 { pixels += block }
            }
        }
        let handle = try #require(tjInitCompress())
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = tjCompress2(
            handle, pixels, Int32(16 * blocks.count), 0, 16, Int32(TJPF_CMYK.rawValue),
            &output, &size, Int32(TJSAMP_444.rawValue), 95, 0
        )
        defer { tjFree(output) }
        try #require(status == 0)
        return Data(bytes: try #require(output), count: Int(size))
    }

    @Test func convertsAdobeCMYKToRGB() throws {
        let jpeg = try Self.cmykJPEG(blocks: [[0, 255, 255, 255], [255, 255, 255, 255], [255, 255, 255, 0], [255, 0, 255, 255]])
        let metadata = jpeg.withUnsafeBytes { JPEGMetadata(reading: $0) }
        #expect(metadata.hasAdobeMarker)
        let bitmap = try coder.decode(jpeg, options: ImageDecodeOptions()).bitmap
        #expect(bitmap.size == PixelSize(width: 64, height: 16))
        #expect(Self.isClose(bitmap.rgba8(x: 8, y: 8), RGBA8(red: 0, green: 255, blue: 255)))
        #expect(Self.isClose(bitmap.rgba8(x: 24, y: 8), RGBA8(red: 255, green: 255, blue: 255)))
        #expect(Self.isClose(bitmap.rgba8(x: 40, y: 8), RGBA8(red: 0, green: 0, blue: 0)))
        #expect(Self.isClose(bitmap.rgba8(x: 56, y: 8), RGBA8(red: 255, green: 0, blue: 255)))
        #expect(bitmap.rgba8(x: 56, y: 8).alpha == 255)
    }

    @Test func convertsPlainCMYKAsInk() {
        var pixels: [UInt8] = [0, 0, 0, 0, 255, 0, 0, 0, 0, 0, 0, 255, 0, 128, 255, 0]
        JPEGCoder.convertCMYKToRGBA(&pixels, inverted: false)
        #expect(pixels == [255, 255, 255, 255, 0, 255, 255, 255, 0, 0, 0, 255, 255, 127, 0, 255])
    }

    // MARK: - Bad and partial input

    @Test func refusesEmptyData() throws {
        #expect(throws: ImageError(.emptyData, "the JPEG data is empty")) {
            try coder.decode(Data(), options: ImageDecodeOptions())
        }
        #expect(try coder.decodeIncrementally(Data(), isComplete: false, options: ImageDecodeOptions()) == nil)
    }

    @Test func refusesRandomBytesBehindASignature() throws {
        var generator = SeededGenerator(seed: 42)
        for length in [0, 1, 10, 100, 1000, 10_000] {
            let data = Data([0xFF, 0xD8, 0xFF] + (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
            #expect(coder.canDecode(data))
            let error = #expect(throws: ImageError.self) { try coder.decode(data, options: ImageDecodeOptions()) }
            #expect(error?.code == .badImageData)
            #expect(try coder.decodeIncrementally(data, isComplete: false, options: ImageDecodeOptions()) == nil)
        }
    }

    @Test func truncatedDataIsAnErrorWholeAndAPartialPictureIncrementally() throws {
        let original = Self.gradient(width: 64, height: 256)
        let jpeg = try encoded(original)
        let half = jpeg.prefix(jpeg.count / 2)
        let error = #expect(throws: ImageError.self) { try coder.decode(half, options: ImageDecodeOptions()) }
        #expect(error?.code == .badImageData)
        #expect(error?.message.contains("truncated") == true)

        let partial = try #require(try coder.decodeIncrementally(half, isComplete: false, options: ImageDecodeOptions()))
        #expect(partial.pixelSize == original.size)
        let topRows = PixelSize(width: 64, height: 64)
        func top(_ bitmap: Bitmap) -> Bitmap {
            Bitmap(width: 64, height: 64, pixels: Array(bitmap.pixels.prefix(topRows.width * topRows.height * 4)))
        }
        #expect(Self.meanDifference(top(partial.bitmap), top(original)) < 2)
        let bottom = partial.bitmap.rgba8(x: 32, y: 250)
        #expect(!Self.isClose(bottom, original.rgba8(x: 32, y: 250), tolerance: 40))

        #expect(throws: ImageError.self) { try coder.decodeIncrementally(half, isComplete: true, options: ImageDecodeOptions()) }
        #expect(try coder.decodeIncrementally(jpeg.prefix(40), isComplete: false, options: ImageDecodeOptions()) == nil)
        let whole = try #require(try coder.decodeIncrementally(jpeg, isComplete: true, options: ImageDecodeOptions()))
        #expect(Self.meanDifference(whole.bitmap, original) < 2)
    }

    @Test func refusesLargeDeclaredSizesBeforeDecoding() throws {
        var options = ImageDecodeOptions()
        options.maxPixelCount = 100
        let jpeg = try encoded(Self.gradient(width: 20, height: 20))
        let error = #expect(throws: ImageError.self) { try coder.decode(jpeg, options: options) }
        #expect(error?.code == .imageTooLarge)
        #expect(throws: ImageError.self) { try coder.decodeIncrementally(jpeg, isComplete: false, options: options) }
        options.thumbnailPixelSize = PixelSize(width: 5, height: 5)
        #expect(try coder.decode(jpeg, options: options).pixelSize == PixelSize(width: 5, height: 5))
    }

    // MARK: - Sizes

    @Test func scalesThumbnailsToTheExactTarget() throws {
        let original = Self.gradient(width: 300, height: 200)
        let jpeg = try encoded(original)
        let fitted = try coder.decode(jpeg, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 100, height: 100)))
        #expect(fitted.pixelSize == PixelSize(width: 100, height: 67))
        #expect(try Self.meanDifference(fitted.bitmap, original.resized(to: fitted.pixelSize)) < 3)
        let filled = try coder.decode(
            jpeg, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 50, height: 150), preserveAspectRatio: false)
        )
        #expect(filled.pixelSize == PixelSize(width: 50, height: 150))
        let larger = try coder.decode(jpeg, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 900, height: 900)))
        #expect(larger.pixelSize == original.size)
    }

    @Test func choosesTheSmallestCoveringScale() {
        let source = PixelSize(width: 5250, height: 3450)
        let scale = JPEGScale.smallest(covering: PixelSize(width: 400, height: 263), from: source)
        #expect(scale == JPEGScale(numerator: 1, denominator: 8))
        #expect(scale.scaled(source) == PixelSize(width: 657, height: 432))
        let near = JPEGScale.smallest(covering: PixelSize(width: 4000, height: 2629), from: source)
        #expect(near == JPEGScale(numerator: 7, denominator: 8))
        #expect(JPEGScale.smallest(covering: source, from: source) == .one)
        #expect(JPEGScale(numerator: 3, denominator: 8).scaled(7) == 3)
    }

    @Test func decodesFromManyThreadsAtOnce() async throws {
        let original = Self.gradient(width: 120, height: 90)
        let jpeg = try encoded(original)
        let reference = try coder.decode(jpeg, options: ImageDecodeOptions()).bitmap
        let coder = self.coder
        let results = try await withThrowingTaskGroup(of: Bitmap.self) { group in
            for _ in 0..<16 {
                group.addTask { try coder.decode(jpeg, options: ImageDecodeOptions()).bitmap }
            }
            return try await group.reduce(into: [Bitmap]()) { $0.append($1) }
        }
        #expect(results.count == 16)
        #expect(results.allSatisfy { $0 == reference })
    }
}
