import CPNG
import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
@testable import WebImagePNG
import WebImageTestSupport

/// PNG thumbnails decoded row by row into a `RowStreamingResizer`: the same pixels as
/// decoding the whole picture and resizing it, for every colour type, without the whole
/// decoded source in memory.
@Suite
struct PNGThumbnailTests {
    let coder = PNGCoder()

    // MARK: - Fixtures

    /// A PNG written by libspng from `samples`, laid out as the PNG stores them (packed
    /// rows, 16-bit samples big-endian), with a palette, palette alpha and colour key
    /// (tRNS) when given, its rows filtered with the filters of `filters` only.
    static func png(
        width: Int, height: Int, colorType: spng_color_type, bitDepth: UInt8 = 8, samples: [UInt8],
        palette: [(UInt8, UInt8, UInt8)] = [], paletteAlpha: [UInt8] = [],
        colorKey: (gray: UInt16, red: UInt16, green: UInt16, blue: UInt16)? = nil,
        filters: spng_filter_choice = SPNG_FILTER_CHOICE_ALL
    ) throws -> Data {
        let context = try #require(spng_ctx_new(Int32(SPNG_CTX_ENCODER.rawValue)))
        defer { spng_ctx_free(context) }
        try #require(spng_set_option(context, SPNG_ENCODE_TO_BUFFER, 1) == 0)
        try #require(spng_set_option(context, SPNG_FILTER_CHOICE, Int32(filters.rawValue)) == 0)
        var header = spng_ihdr(
            width: UInt32(width), height: UInt32(height), bit_depth: bitDepth, color_type: UInt8(colorType.rawValue),
            compression_method: 0, filter_method: 0, interlace_method: 0)
        try #require(spng_set_ihdr(context, &header) == 0)
        if !palette.isEmpty {
            var plte = spng_plte()
            plte.n_entries = UInt32(palette.count)
            withUnsafeMutableBytes(of: &plte.entries) { entries in
                for (index, colour) in palette.enumerated() {
                    entries[index * 4] = colour.0
                    entries[index * 4 + 1] = colour.1
                    entries[index * 4 + 2] = colour.2
                    entries[index * 4 + 3] = 255
                }
            }
            try #require(spng_set_plte(context, &plte) == 0)
        }
        if !paletteAlpha.isEmpty || colorKey != nil {
            var trns = spng_trns()
            if let colorKey { (trns.gray, trns.red, trns.green, trns.blue) = colorKey }
            trns.n_type3_entries = UInt32(paletteAlpha.count)
            withUnsafeMutableBytes(of: &trns.type3_alpha) { alpha in
                for (index, value) in paletteAlpha.enumerated() { alpha[index] = value }
            }
            try #require(spng_set_trns(context, &trns) == 0)
        }
        var samples = samples
        let status = spng_encode_image(
            context, &samples, samples.count, Int32(SPNG_FMT_PNG.rawValue), Int32(SPNG_ENCODE_FINALIZE.rawValue))
        try #require(status == 0, "libspng: \(String(cString: spng_strerror(status)))")
        var length = 0
        var error: Int32 = 0
        let buffer = try #require(spng_get_png_buffer(context, &length, &error))
        defer { free(buffer) }
        return Data(bytes: buffer, count: length)
    }

    /// Samples for `channels` channels of `bitDepth` bits (8 or 16, big-endian) that vary
    /// in every pixel; the last channel is opaque unless `varyLast`.
    static func samples(width: Int, height: Int, channels: Int, bitDepth: Int = 8, varyLast: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                for channel in 0..<channels {
                    let across: Int = x * (7 + channel * 5)
                    let down: Int = y * (13 - channel * 3)
                    var value: Int = (across + down + x * y * channel) & 0xFFFF
                    if channel == channels - 1, !varyLast { value = 0xFFFF }
                    if bitDepth == 16 {
                        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
                        bytes.append(UInt8(truncatingIfNeeded: value * 37))
                    } else {
                        bytes.append(UInt8(value & 0xFF))
                    }
                }
            }
        }
        return bytes
    }

    /// Today's path: the whole picture decoded, then resized to the thumbnail's size.
    func wholeThenResized(_ data: Data, box: PixelSize) throws -> Image {
        let full = try coder.decode(data, options: ImageDecodeOptions())
        let target = ImageDecodeOptions(thumbnailPixelSize: box).targetSize(forSource: full.pixelSize)
        return try Image(bitmap: full.bitmap.resized(to: target), format: .png, hasAlpha: full.hasAlpha)
    }

    /// Checks that `data` takes the streamed path and gives today's pixels exactly.
    func expectStreamedEqualsWhole(_ data: Data, box: PixelSize, _ comment: Comment) throws {
        let options = ImageDecodeOptions(thumbnailPixelSize: box)
        let streamed = try data.withImageBytes { stream throws(ImageError) in
            try PNGCoder.decodeStreamedThumbnail(stream, options: options)
        }
        let thumbnail = try #require(streamed, "\(comment): not streamed")
        let expected = try wholeThenResized(data, box: box)
        #expect(thumbnail.pixelSize == expected.pixelSize, comment)
        #expect(thumbnail.bitmap.pixelFormat == expected.bitmap.pixelFormat, comment)
        #expect(thumbnail.hasAlpha == expected.hasAlpha, comment)
        #expect(Self.largestDifference(thumbnail.bitmap, expected.bitmap) == 0, comment)
        let decoded = try coder.decode(data, options: options)
        #expect(decoded.bitmap == thumbnail.bitmap, comment)
    }

    /// The largest difference of any sample of two bitmaps of the same size and format.
    static func largestDifference(_ a: Bitmap, _ b: Bitmap) -> Int {
        guard a.size == b.size, a.pixelFormat == b.pixelFormat, a.pixels.count == b.pixels.count else { return .max }
        switch a.pixelFormat {
        case .rgba8:
            return zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
        case .rgba16:
            let left = a.pixels.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
            let right = b.pixels.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
            return zip(left, right).map { abs(Int($0) - Int($1)) }.max() ?? 0
        }
    }

    // MARK: - Colour types

    @Test func rgbThumbnailEqualsWholeDecode() throws {
        let data = try Self.png(width: 120, height: 90, colorType: SPNG_COLOR_TYPE_TRUECOLOR, samples: Self.samples(width: 120, height: 90, channels: 3))
        try expectStreamedEqualsWhole(data, box: PixelSize(width: 32, height: 32), "RGB")
    }

    @Test func rgbaThumbnailEqualsWholeDecode() throws {
        let data = try Self.png(
            width: 120, height: 90, colorType: SPNG_COLOR_TYPE_TRUECOLOR_ALPHA, samples: Self.samples(width: 120, height: 90, channels: 4))
        try expectStreamedEqualsWhole(data, box: PixelSize(width: 32, height: 32), "RGBA")
    }

    @Test func opaqueRGBAThumbnailEqualsWholeDecode() throws {
        // An alpha channel that is opaque everywhere: today's resize does not premultiply.
        let samples = Self.samples(width: 120, height: 90, channels: 4, varyLast: false)
        let data = try Self.png(width: 120, height: 90, colorType: SPNG_COLOR_TYPE_TRUECOLOR_ALPHA, samples: samples)
        try expectStreamedEqualsWhole(data, box: PixelSize(width: 32, height: 32), "opaque RGBA")
    }

    @Test func greyThumbnailEqualsWholeDecode() throws {
        let data = try Self.png(width: 100, height: 80, colorType: SPNG_COLOR_TYPE_GRAYSCALE, samples: Self.samples(width: 100, height: 80, channels: 1))
        try expectStreamedEqualsWhole(data, box: PixelSize(width: 25, height: 25), "grey")
    }

    @Test func greyWithTransparencyKeyThumbnailEqualsWholeDecode() throws {
        let data = try Self.png(
            width: 100, height: 80, colorType: SPNG_COLOR_TYPE_GRAYSCALE, samples: Self.samples(width: 100, height: 80, channels: 1),
            colorKey: (gray: 20, red: 0, green: 0, blue: 0))
        try expectStreamedEqualsWhole(data, box: PixelSize(width: 25, height: 25), "grey with tRNS")
    }

    @Test func greyAlphaThumbnailEqualsWholeDecode() throws {
        let data = try Self.png(
            width: 100, height: 80, colorType: SPNG_COLOR_TYPE_GRAYSCALE_ALPHA, samples: Self.samples(width: 100, height: 80, channels: 2))
        try expectStreamedEqualsWhole(data, box: PixelSize(width: 25, height: 25), "grey + alpha")
    }

    @Test func paletteWithTransparencyThumbnailEqualsWholeDecode() throws {
        var palette: [(UInt8, UInt8, UInt8)] = []
        for index in 0..<256 {
            let red = UInt8(index), green = UInt8(255 - index), blue = UInt8(truncatingIfNeeded: index * 7)
            palette.append((red, green, blue))
        }
        var alpha: [UInt8] = []
        for index in 0..<200 { alpha.append(UInt8(truncatingIfNeeded: index * 5)) }
        let data = try Self.png(
            width: 100, height: 80, colorType: SPNG_COLOR_TYPE_INDEXED, samples: Self.samples(width: 100, height: 80, channels: 1),
            palette: palette, paletteAlpha: alpha)
        try expectStreamedEqualsWhole(data, box: PixelSize(width: 25, height: 25), "palette with tRNS")
    }

    @Test func sixteenBitThumbnailsEqualWholeDecode() throws {
        let rgba = try Self.png(
            width: 90, height: 70, colorType: SPNG_COLOR_TYPE_TRUECOLOR_ALPHA, bitDepth: 16,
            samples: Self.samples(width: 90, height: 70, channels: 4, bitDepth: 16))
        try expectStreamedEqualsWhole(rgba, box: PixelSize(width: 20, height: 20), "16-bit RGBA")
        let grey = try Self.png(
            width: 90, height: 70, colorType: SPNG_COLOR_TYPE_GRAYSCALE, bitDepth: 16,
            samples: Self.samples(width: 90, height: 70, channels: 1, bitDepth: 16))
        try expectStreamedEqualsWhole(grey, box: PixelSize(width: 20, height: 20), "16-bit grey")
        let thumbnail = try coder.decode(rgba, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 20, height: 20)))
        #expect(thumbnail.bitmap.pixelFormat == .rgba16)
    }

    @Test func oddSizesEqualWholeDecode() throws {
        for (width, height, box) in [(97, 61, 10), (61, 97, 7), (333, 5, 40), (3, 211, 50), (41, 43, 40)] {
            let data = try Self.png(
                width: width, height: height, colorType: SPNG_COLOR_TYPE_TRUECOLOR_ALPHA,
                samples: Self.samples(width: width, height: height, channels: 4))
            try expectStreamedEqualsWhole(data, box: PixelSize(width: box, height: box), "\(width)x\(height) into \(box)")
        }
    }

    @Test func aFullSizeDecodeIsNotStreamed() throws {
        let data = try Self.png(width: 40, height: 30, colorType: SPNG_COLOR_TYPE_TRUECOLOR, samples: Self.samples(width: 40, height: 30, channels: 3))
        let streamed = try data.withImageBytes { stream throws(ImageError) in
            try PNGCoder.decodeStreamedThumbnail(stream, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 64, height: 64)))
        }
        #expect(streamed == nil)
    }

    // MARK: - From a file

    /// `data` written to a fresh temporary file, removed after `body`.
    func withFile<T>(_ data: Data, _ body: (String) throws -> T) throws -> T {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("png-thumbnail-\(UUID().uuidString).png")
        try data.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return try body(url.path)
    }

    @Test func aThumbnailFromAFileEqualsOneFromItsData() throws {
        let box = PixelSize(width: 30, height: 30)
        let rgba = try Self.png(
            width: 120, height: 90, colorType: SPNG_COLOR_TYPE_TRUECOLOR_ALPHA, samples: Self.samples(width: 120, height: 90, channels: 4))
        let fromFile = try withFile(rgba) { path in try PNGCoder.streamedThumbnail(atPath: path, options: ImageDecodeOptions(thumbnailPixelSize: box)) }
        let thumbnail = try #require(fromFile)
        let fromData = try coder.decode(rgba, options: ImageDecodeOptions(thumbnailPixelSize: box))
        #expect(thumbnail.bitmap == fromData.bitmap)
        #expect(thumbnail.hasAlpha == fromData.hasAlpha)
    }

    @Test func filesTheStreamedPathLeavesToTheDataPath() throws {
        let box = PixelSize(width: 8, height: 8)
        let options = ImageDecodeOptions(thumbnailPixelSize: box)
        let frames = (0..<2).map { ImageFrame(bitmap: PNGCoderTests.pattern(width: 40, height: 30, seed: $0 * 50), duration: 0.1) }
        let animated = try coder.encode(Image(frames: frames, format: .png), as: .png, options: ImageEncodeOptions())
        #expect(try withFile(animated) { path in try PNGCoder.streamedThumbnail(atPath: path, options: options) } == nil)
        #expect(try withFile(Data("not a PNG".utf8)) { path in try PNGCoder.streamedThumbnail(atPath: path, options: options) } == nil)
        #expect(try withFile(Data()) { path in try PNGCoder.streamedThumbnail(atPath: path, options: options) } == nil)
        #expect(try PNGCoder.streamedThumbnail(atPath: "/nonexistent/picture.png", options: options) == nil)
        let small = try Self.png(width: 6, height: 6, colorType: SPNG_COLOR_TYPE_TRUECOLOR, samples: Self.samples(width: 6, height: 6, channels: 3))
        #expect(try withFile(small) { path in try PNGCoder.streamedThumbnail(atPath: path, options: options) } == nil)
    }

    @Test func aTruncatedFileFailsAsItsDataDoes() throws {
        let data = try Self.png(width: 64, height: 64, colorType: SPNG_COLOR_TYPE_TRUECOLOR, samples: Self.samples(width: 64, height: 64, channels: 3))
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 16, height: 16))
        for cut in [60, data.count / 2] {
            let prefix = data.prefix(cut)
            let fromData = Self.outcome { () throws(ImageError) in try coder.decode(prefix, options: options) }
            let fromFile = try withFile(prefix) { path in
                Self.outcome { () throws(ImageError) in
                    guard let image = try PNGCoder.streamedThumbnail(atPath: path, options: options) else {
                        throw ImageError(.unsupportedFormat, "not streamed")
                    }
                    return image
                }
            }
            #expect(fromData == .badImageData, "cut at \(cut)")
            #expect(fromFile == fromData, "cut at \(cut)")
        }
    }

    // MARK: - Failures

    @Test func truncatedDataFailsAsTheWholeDecodeDoes() throws {
        let data = try Self.png(width: 64, height: 64, colorType: SPNG_COLOR_TYPE_TRUECOLOR, samples: Self.samples(width: 64, height: 64, channels: 3))
        var failures = 0
        for cut in [60, data.count / 2, data.count - 20, data.count - 12] {
            let prefix = data.prefix(cut)
            let whole = Self.outcome { () throws(ImageError) in try coder.decode(prefix, options: ImageDecodeOptions()) }
            let thumbnail = Self.outcome { () throws(ImageError) in
                try coder.decode(prefix, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 16, height: 16)))
            }
            #expect(thumbnail == whole, "cut at \(cut) of \(data.count)")
            if whole != nil { failures += 1 }
        }
        #expect(failures >= 2)
    }

    /// The error code `decode` throws; `nil` when it succeeds.
    static func outcome(_ decode: () throws(ImageError) -> Image) -> ImageError.Code? {
        do {
            _ = try decode()
            return nil
        } catch {
            return error.code
        }
    }

    @Test func corruptImageDataFailsAsTheWholeDecodeDoes() throws {
        var data = try Self.png(width: 64, height: 64, colorType: SPNG_COLOR_TYPE_TRUECOLOR, samples: Self.samples(width: 64, height: 64, channels: 3))
        data[data.count / 2] ^= 0x5A
        let whole = #expect(throws: ImageError.self) { try coder.decode(data, options: ImageDecodeOptions()) }
        let thumbnail = #expect(throws: ImageError.self) {
            try coder.decode(data, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 16, height: 16)))
        }
        #expect(thumbnail?.code == whole?.code)
    }

    @Test func resizerRefusesAnOutputThatCannotBeHad() {
        let error = #expect(throws: ImageError.self) {
            try RowStreamingResizer(
                source: PixelSize(width: 10, height: 10), destination: PixelSize(width: Int.max / 2, height: 3),
                pixelFormat: .rgba8, mayBeTransparent: false)
        }
        #expect(error?.code == .imageTooLarge)
    }

    // MARK: - Memory

    @Test func anEightMegapixelThumbnailHoldsAFewRows() throws {
        // The benchmark's shape: a 3770 × 2120 source into 256 × 144.
        let source = PixelSize(width: 3770, height: 2120)
        let target = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 256, height: 256)).targetSize(forSource: source)
        let resizer = try RowStreamingResizer(source: source, destination: target, pixelFormat: .rgba8, mayBeTransparent: true)
        #expect(resizer.heldRows < source.height / 20)
        // What the whole decode held: the decoded source, then the float rows between passes.
        let wholeDecode = source.width * source.height * 4
        let betweenPasses = source.height * target.width * MemoryLayout<SIMD4<Float>>.stride
        #expect(resizer.heldBytes * 20 < wholeDecode)
        #expect(resizer.heldBytes * 5 < betweenPasses)
    }

    @Test func resizerFedRowsEqualsResizingTheWholeBitmap() throws {
        let bitmaps = [
            PNGCoderTests.pattern(width: 150, height: 110),
            PNGCoderTests.pattern(width: 150, height: 110, alpha: false),
            PNGCoderTests.widePattern(width: 60, height: 30),
        ]
        for bitmap in bitmaps {
            for target in [PixelSize(width: 31, height: 23), PixelSize(width: 150, height: 60), PixelSize(width: 7, height: 110)] {
                let resizer = try RowStreamingResizer(
                    source: bitmap.size, destination: target, pixelFormat: bitmap.pixelFormat, mayBeTransparent: true)
                let rowBytes = bitmap.width * bitmap.pixelFormat.bytesPerPixel
                bitmap.pixels.withUnsafeBytes { pixels in
                    for y in 0..<bitmap.height { resizer.append(row: pixels.baseAddress! + y * rowBytes) }
                }
                #expect(try resizer.finish() == bitmap.resized(to: target), "\(bitmap.size) \(bitmap.pixelFormat) to \(target)")
            }
        }
    }

    // MARK: - Corpus

    // The corpus is decoded under AddressSanitizer (scripts/test-asan.sh), as every other
    // corpus suite is: it has no concurrency for ThreadSanitizer to check, and under it the
    // 16 large PNGs of image-png-benches took 425 s of the suite's run.
    @Test(Corpus.required, Corpus.skippedUnderThreadSanitizer) func interlacedPNGsStillDecodeToThumbnails() throws {
        let interlaced = Corpus.files(in: "pngsuite", extensions: ["png"]).filter { $0.lastPathComponent.hasPrefix("basi") }
        #expect(!interlaced.isEmpty)
        let box = PixelSize(width: 12, height: 12)
        for file in interlaced {
            let data = try Data(contentsOf: file)
            let streamed = try data.withImageBytes { stream throws(ImageError) in
                try PNGCoder.decodeStreamedThumbnail(stream, options: ImageDecodeOptions(thumbnailPixelSize: box))
            }
            #expect(streamed == nil, "\(file.lastPathComponent) is interlaced")
            let thumbnail = try coder.decode(data, options: ImageDecodeOptions(thumbnailPixelSize: box))
            #expect(thumbnail.bitmap == (try wholeThenResized(data, box: box)).bitmap, "\(file.lastPathComponent)")
        }
    }

    @Test(Corpus.required, Corpus.skippedUnderThreadSanitizer, arguments: ["pngsuite", "image-png-benches"])
    func corpusThumbnailsDecodeOrFailAsBefore(_ folder: String) throws {
        let box = PixelSize(width: 24, height: 24)
        var compared = 0
        for file in Corpus.files(in: folder, extensions: ["png"]) {
            let data = try Data(contentsOf: file)
            let name = file.lastPathComponent
            let expected: Result<Image, ImageError>
            do { expected = .success(try wholeThenResized(data, box: box)) } catch let error as ImageError { expected = .failure(error) }
            let actual: Result<Image, ImageError>
            do {
                actual = .success(try coder.decode(data, options: ImageDecodeOptions(thumbnailPixelSize: box)))
            } catch {
                actual = .failure(error)
            }
            switch (expected, actual) {
            case let (.success(before), .success(now)):
                #expect(Self.largestDifference(before.bitmap, now.bitmap) == 0, "\(name)")
                #expect(before.hasAlpha == now.hasAlpha, "\(name)")
                compared += 1
            case let (.failure(before), .failure(now)):
                #expect(before.code == now.code, "\(name): \(before) then \(now)")
            default:
                Issue.record("\(name): \(expected) before, \(actual) now")
            }
        }
        #expect(compared >= (folder == "pngsuite" ? 161 : 14))
    }
}
