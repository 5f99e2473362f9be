import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
@testable import WebImagePNG
import WebImageTestSupport

/// The PNG coder on generated images: round trips, bad input, progressive rows, limits.
@Suite
struct PNGCoderTests {
    let coder = PNGCoder()

    // MARK: - Fixtures

    /// A bitmap whose every pixel differs, with varied alpha when `alpha` is set.
    static func pattern(width: Int, height: Int, alpha: Bool = true, seed: Int = 0) -> Bitmap {
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                pixels += [
                    UInt8((x * 7 + seed) & 0xFF), UInt8((y * 13 + seed) & 0xFF), UInt8((x * y + seed) & 0xFF),
                    alpha ? UInt8((x + y * 3 + seed) & 0xFF) : 255,
                ]
            }
        }
        return Bitmap(width: width, height: height, pixelFormat: .rgba8, pixels: pixels)
    }

    /// A 16-bit bitmap with values that no 8-bit image could hold.
    static func widePattern(width: Int, height: Int) -> Bitmap {
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                for value in [UInt16(x * 1021 + 3), UInt16(y * 2039 + 1), UInt16((x * y * 331) & 0xFFFF), UInt16(60_000 + x)] {
                    withUnsafeBytes(of: value) { pixels += $0 }
                }
            }
        }
        return Bitmap(width: width, height: height, pixelFormat: .rgba16, pixels: pixels)
    }

    static func solid(_ color: RGBA8, width: Int, height: Int) -> Bitmap {
        let pixels = [UInt8](repeating: 0, count: width * height * 4).enumerated().map { index, _ in
            [color.red, color.green, color.blue, color.alpha][index % 4]
        }
        return Bitmap(width: width, height: height, pixels: pixels)
    }

    /// The chunk types of a PNG, in order.
    static func chunkTypes(_ data: Data) throws -> [String] {
        try data.withImageBytes { stream throws(ImageError) in
            var reader = try PNGChunkReader(stream)
            var types: [String] = []
            while let chunk = try reader.next() {
                types.append(withUnsafeBytes(of: chunk.type.rawValue.bigEndian) { String(decoding: $0, as: UTF8.self) })
            }
            return types
        }
    }

    // MARK: - Basics

    @Test func recognisesPNGSignatureOnly() {
        #expect(coder.canDecode(Data(PNGChunkReader.signature + [0, 0])))
        #expect(!coder.canDecode(Data([0xFF, 0xD8, 0xFF, 0xE0])))
        #expect(!coder.canDecode(Data()))
        #expect(coder.canEncode(to: .png))
        #expect(!coder.canEncode(to: .jpeg))
    }

    @Test func roundTripsEightBitRGBAExactly() throws {
        let bitmap = Self.pattern(width: 37, height: 23)
        let data = try coder.encode(Image(bitmap: bitmap), as: .png, options: ImageEncodeOptions())
        let image = try coder.decode(data, options: ImageDecodeOptions(scaleFactor: 2))
        #expect(image.bitmap == bitmap)
        #expect(image.hasAlpha)
        #expect(image.format == .png)
        #expect(image.scale == 2)
        #expect(image.frames.count == 1)
    }

    @Test func opaqueImagesAreWrittenAsRGB() throws {
        let bitmap = Self.pattern(width: 20, height: 10, alpha: false)
        let data = try coder.encode(Image(bitmap: bitmap), as: .png, options: ImageEncodeOptions())
        #expect(data[25] == 2)
        let image = try coder.decode(data, options: ImageDecodeOptions())
        #expect(image.bitmap == bitmap)
        #expect(!image.hasAlpha)
    }

    @Test func roundTripsSixteenBitExactly() throws {
        let bitmap = Self.widePattern(width: 19, height: 11)
        let data = try coder.encode(Image(bitmap: bitmap), as: .png, options: ImageEncodeOptions())
        #expect(data[24] == 16)
        let image = try coder.decode(data, options: ImageDecodeOptions())
        #expect(image.bitDepth == 16)
        #expect(image.bitmap == bitmap)
        let first = UInt16(image.bitmap.pixels[0]) | UInt16(image.bitmap.pixels[1]) << 8
        #expect(UInt16(littleEndian: first) == 3)
    }

    @Test func roundTripsOpaqueSixteenBitAsRGB() throws {
        var bitmap = Self.widePattern(width: 9, height: 7)
        for pixel in 0..<(9 * 7) {
            bitmap.pixels[pixel * 8 + 6] = 0xFF
            bitmap.pixels[pixel * 8 + 7] = 0xFF
        }
        let data = try coder.encode(Image(bitmap: bitmap), as: .png, options: ImageEncodeOptions())
        #expect(data[24] == 16 && data[25] == 2)
        let decoded = try coder.decode(data, options: ImageDecodeOptions()).bitmap
        #expect(decoded == bitmap)
    }

    @Test func animationsRoundTripAsAPNG() throws {
        let frames = [0.03, 0.1, 1.5].enumerated().map { index, duration in
            ImageFrame(bitmap: Self.pattern(width: 12, height: 9, seed: index * 40), duration: duration)
        }
        let image = Image(frames: frames, loopCount: 4, format: .png)
        let data = try coder.encode(image, as: .png, options: ImageEncodeOptions())
        let types = try Self.chunkTypes(data)
        #expect(types.prefix(3) == ["IHDR", "acTL", "fcTL"])
        #expect(types.filter { $0 == "fcTL" }.count == 3)
        #expect(types.contains("fdAT") && types.last == "IEND")
        let decoded = try coder.decode(data, options: ImageDecodeOptions())
        #expect(decoded.frames.count == 3)
        #expect(decoded.loopCount == 4)
        #expect(decoded.frames.map(\.duration) == [0.03, 0.1, 1.5])
        let samePixels = zip(decoded.frames, frames).allSatisfy { $0.bitmap == $1.bitmap }
        #expect(samePixels)
        let still = try coder.encode(image, as: .png, options: ImageEncodeOptions(firstFrameOnly: true))
        #expect(try !Self.chunkTypes(still).contains("acTL"))
        #expect(try coder.decode(still, options: ImageDecodeOptions()).bitmap == frames[0].bitmap)
    }

    @Test func sixteenBitAnimationsRoundTrip() throws {
        let first = Self.widePattern(width: 5, height: 4)
        let second = Bitmap(width: 5, height: 4, pixelFormat: .rgba16, pixels: first.pixels.reversed())
        let frames = [ImageFrame(bitmap: first, duration: 0.5), ImageFrame(bitmap: second, duration: 0.5)]
        let data = try coder.encode(Image(frames: frames, loopCount: 0), as: .png, options: ImageEncodeOptions())
        let decoded = try coder.decode(data, options: ImageDecodeOptions())
        #expect(decoded.frames.count == 2 && decoded.bitDepth == 16)
        #expect(decoded.frames[1].bitmap == frames[1].bitmap)
    }

    @Test func delaysBecomeFractionsThatFit() {
        #expect(PNGCoder.delayFraction(seconds: 0.03) == (30, 1000))
        #expect(PNGCoder.delayFraction(seconds: 100) == (10000, 100))
        #expect(PNGCoder.delayFraction(seconds: 1000) == (10000, 10))
        #expect(PNGCoder.delayFraction(seconds: -1) == (0, 1000))
        #expect(PNGCoder.delayFraction(seconds: .infinity) == (0, 1000))
    }

    @Test func refusesOtherFormats() {
        let error = #expect(throws: ImageError.self) {
            try coder.encode(Image(bitmap: Self.pattern(width: 2, height: 2)), as: .jpeg, options: ImageEncodeOptions())
        }
        #expect(error?.code == .unsupportedFormat)
    }

    @Test func stillPNGAnimationInfoIsOneFrame() throws {
        let data = try coder.encode(Image(bitmap: Self.pattern(width: 5, height: 4)), as: .png, options: ImageEncodeOptions())
        let info = try coder.animationInfo(of: data)
        #expect(info == AnimationInfo(canvasSize: PixelSize(width: 5, height: 4), loopCount: 0, frameDurations: [0]))
    }

    // MARK: - Sizing and limits

    @Test func thumbnailsKeepAspectRatio() throws {
        let data = try coder.encode(Image(bitmap: Self.pattern(width: 80, height: 40)), as: .png, options: ImageEncodeOptions())
        let image = try coder.decode(data, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 20, height: 20)))
        #expect(image.pixelSize == PixelSize(width: 20, height: 10))
    }

    @Test func scaleDownLimitShrinksTheImage() throws {
        let data = try coder.encode(Image(bitmap: Self.pattern(width: 64, height: 64)), as: .png, options: ImageEncodeOptions())
        let image = try coder.decode(data, options: ImageDecodeOptions(scaleDownLimitBytes: 32 * 32 * 4))
        #expect(image.pixelSize == PixelSize(width: 32, height: 32))
    }

    @Test func pixelLimitRefusesBeforeDecoding() throws {
        let data = try coder.encode(Image(bitmap: Self.pattern(width: 64, height: 64)), as: .png, options: ImageEncodeOptions())
        var options = ImageDecodeOptions()
        options.maxPixelCount = 1000
        let error = #expect(throws: ImageError.self) { try coder.decode(data, options: options) }
        #expect(error?.code == .imageTooLarge)
    }

    @Test func chunkLimitDoesNotApplyToImageData() throws {
        var state: UInt32 = 1
        let noise = (0..<(64 * 64 * 4)).map { _ -> UInt8 in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
        let noisy = Bitmap(width: 64, height: 64, pixels: noise)
        let data = try coder.encode(Image(bitmap: noisy), as: .png, options: ImageEncodeOptions())
        let largestImageData = try data.withImageBytes { stream throws(ImageError) in
            var reader = try PNGChunkReader(stream)
            var largest = 0
            while let chunk = try reader.next() {
                if chunk.type == .imageData { largest = max(largest, chunk.data.count) }
            }
            return largest
        }
        #expect(largestImageData > 4096)
        var options = ImageDecodeOptions()
        options.maxChunkBytes = 1024
        #expect(try coder.decode(data, options: options).bitmap == noisy)
    }

    // MARK: - Bad input

    @Test func emptyDataIsRefused() {
        let error = #expect(throws: ImageError.self) { try coder.decode(Data(), options: ImageDecodeOptions()) }
        #expect(error?.code == .emptyData)
    }

    @Test func signatureOnlyIsBadData() {
        let error = #expect(throws: ImageError.self) {
            try coder.decode(Data(PNGChunkReader.signature), options: ImageDecodeOptions())
        }
        #expect(error?.code == .badImageData)
    }

    @Test func truncatedDataIsBadDataButDecodesIncrementally() throws {
        let bitmap = Self.pattern(width: 40, height: 40, alpha: false)
        let data = try coder.encode(Image(bitmap: bitmap), as: .png, options: ImageEncodeOptions())
        let half = data.prefix(data.count / 2)
        let error = #expect(throws: ImageError.self) { try coder.decode(half, options: ImageDecodeOptions()) }
        #expect(error?.code == .badImageData)
        let partial = try #require(try coder.decodeIncrementally(half, isComplete: false, options: ImageDecodeOptions()))
        #expect(partial.pixelSize == bitmap.size)
        #expect(partial.bitmap.rgba8(x: 3, y: 0) == bitmap.rgba8(x: 3, y: 0))
        #expect(partial.bitmap.rgba8(x: 3, y: 39).alpha == 0)
    }

    @Test func zeroWidthHeaderIsBadData() throws {
        var bytes = [UInt8](try coder.encode(Image(bitmap: Self.pattern(width: 4, height: 4)), as: .png, options: ImageEncodeOptions()))
        bytes.replaceSubrange(16..<20, with: [0, 0, 0, 0])
        let crc = bytes[12..<29].withUnsafeBytes { CRC32.checksum($0) }
        bytes.replaceSubrange(29..<33, with: withUnsafeBytes(of: crc.bigEndian, Array.init))
        let error = #expect(throws: ImageError.self) { try coder.decode(Data(bytes), options: ImageDecodeOptions()) }
        #expect(error?.code == .badImageData)
    }

    @Test func corruptImageDataIsAnError() throws {
        var bytes = [UInt8](try coder.encode(Image(bitmap: Self.pattern(width: 30, height: 30)), as: .png, options: ImageEncodeOptions()))
        bytes[bytes.count - 30] ^= 0x55
        #expect(throws: ImageError.self) { try coder.decode(Data(bytes), options: ImageDecodeOptions()) }
    }

    // MARK: - Progressive

    @Test func prefixShowsTheTopRowsOfTheFinalImage() throws {
        let bitmap = Self.pattern(width: 200, height: 120, alpha: false)
        let data = try coder.encode(Image(bitmap: bitmap), as: .png, options: ImageEncodeOptions())
        #expect(try coder.decodeIncrementally(data.prefix(40), isComplete: false, options: ImageDecodeOptions()) == nil)
        let partial = try #require(try coder.decodeIncrementally(data.prefix(data.count * 2 / 3), isComplete: false, options: ImageDecodeOptions()))
        let rowBytes = bitmap.bytesPerRow
        let decodedRows = (0..<bitmap.height).filter { row in partial.bitmap.rgba8(x: 0, y: row).alpha != 0 }
        #expect(decodedRows.count > 10 && decodedRows.count < bitmap.height)
        #expect(decodedRows == Array(0..<decodedRows.count))
        #expect(partial.bitmap.pixels.prefix(decodedRows.count * rowBytes) == bitmap.pixels.prefix(decodedRows.count * rowBytes))
        #expect(partial.bitmap.pixels[(decodedRows.count * rowBytes)...].allSatisfy { $0 == 0 })
        let complete = try #require(try coder.decodeIncrementally(data, isComplete: true, options: ImageDecodeOptions()))
        #expect(complete.bitmap == bitmap)
    }

    @Test func chunkBoundaryPrefixDecodesAllRowsItHolds() throws {
        let bitmap = Self.pattern(width: 50, height: 50)
        let data = try coder.encode(Image(bitmap: bitmap), as: .png, options: ImageEncodeOptions())
        let withoutEnd = data.prefix(data.count - 12)
        let partial = try #require(try coder.decodeIncrementally(withoutEnd, isComplete: false, options: ImageDecodeOptions()))
        #expect(partial.bitmap == bitmap)
    }

    @Test(Corpus.required) func interlacedDataDecodesProgressivelyPassByPass() throws {
        let data = try Corpus.data("pngsuite/basi2c08.png")
        let full = try coder.decode(data, options: ImageDecodeOptions())
        let withoutEnd = data.prefix(data.count - 12)
        let complete = try #require(try coder.decodeIncrementally(withoutEnd, isComplete: false, options: ImageDecodeOptions()))
        #expect(complete.bitmap == full.bitmap)
        let early = try #require(try coder.decodeIncrementally(data.prefix(data.count / 3), isComplete: false, options: ImageDecodeOptions()))
        #expect(early.bitmap.rgba8(x: 0, y: 0) == full.bitmap.rgba8(x: 0, y: 0))
        #expect(early.bitmap.rgba8(x: 31, y: 31).alpha == 0)
    }
}
