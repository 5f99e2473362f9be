import CPNG
import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
@testable import WebImagePNG
import WebImageTestSupport

/// PNGs in memory inflated whole by libdeflate and unfiltered by ``PNGInflatedImage``:
/// libspng's pixels, alpha flag and colour profile for every bit depth, colour type, filter
/// and transparency, over every PNG of the corpora; libspng's answer wherever the data is
/// damaged; and a typed error, never a crash, for corrupt and cut files.
@Suite
struct PNGInflatedImageTests {
    let coder = PNGCoder()

    // MARK: - Fixtures

    /// The still image of `data` decoded by libspng alone.
    static func libspngStill(_ data: Data, options: ImageDecodeOptions = ImageDecodeOptions()) -> Result<Bitmap, ImageError> {
        Result { () throws(ImageError) in
            try data.withImageBytes { stream throws(ImageError) in
                try PNGCoder.decodeStill(stream, options: options, libspngOnly: true).bitmap
            }
        }
    }

    /// The pixels ``PNGInflatedImage`` gives for `data`, in the coder's layout; `nil` when it
    /// declines the data (or libspng refuses its header or the chunks before its image data).
    static func inflatedPixels(_ data: Data, options: ImageDecodeOptions = ImageDecodeOptions()) -> [UInt8]? {
        data.withUnsafeBytes { stream -> [UInt8]? in
            guard let context = try? SPNGContext.decoder(for: stream, options: options), let header = try? context.header(),
                (try? context.hasTransparencyChunk()) != nil,
                let image = PNGInflatedImage(stream: stream, header: header, context: context, options: options)
            else { return nil }
            let rowBytes = Int(header.width) * PNGOutputLayout(header).pixelFormat.bytesPerPixel
            var pixels = [UInt8](repeating: 0xA5, count: rowBytes * Int(header.height))
            let decoded = pixels.withUnsafeMutableBytes { buffer in
                image.decodeRows(into: { buffer.baseAddress! + $0 * rowBytes }, { _ in })
            }
            return decoded ? pixels : nil
        }
    }

    /// A PNG libspng's encoder writes from packed rows `rows` (16-bit samples big-endian),
    /// with a palette, palette alpha and colour key when given, filtered with `filters` only:
    /// ``PNGThumbnailTests/png(width:height:colorType:bitDepth:samples:palette:paletteAlpha:colorKey:filters:)``
    /// with the colour type as IHDR's byte.
    static func png(
        width: Int, height: Int, colorType: UInt8, bitDepth: UInt8, rows: [UInt8],
        palette: [(UInt8, UInt8, UInt8)] = [], paletteAlpha: [UInt8] = [],
        colorKey: (gray: UInt16, red: UInt16, green: UInt16, blue: UInt16)? = nil,
        filters: spng_filter_choice
    ) throws -> Data {
        try PNGThumbnailTests.png(
            width: width, height: height, colorType: spng_color_type(rawValue: .init(colorType)), bitDepth: bitDepth, samples: rows,
            palette: palette, paletteAlpha: paletteAlpha, colorKey: colorKey, filters: filters)
    }

    /// Packed rows of random bytes for `width` pixels of `bitsPerPixel`, `height` rows, with
    /// runs of repeated bytes so that colour keys and every filter's predictions are met.
    static func randomRows(width: Int, height: Int, bitsPerPixel: Int, using generator: inout some RandomNumberGenerator) -> [UInt8] {
        let count = (width * bitsPerPixel + 7) / 8 * height
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count {
            let byte = UInt8.random(in: 0...255, using: &generator)
            let run = Bool.random(using: &generator) ? 1 : Int.random(in: 2...12, using: &generator)
            bytes += repeatElement(byte, count: min(run, count - bytes.count))
        }
        return bytes
    }

    /// Checks that ``PNGInflatedImage`` takes `data` and gives libspng's pixels, and that the
    /// coder's decode and thumbnail agree with libspng's.
    func expectLibspngsPixels(_ data: Data, _ comment: Comment) throws {
        let expected = try Self.libspngStill(data).get()
        let inflated = try #require(Self.inflatedPixels(data), "declined: \(comment)")
        let same = inflated == expected.pixels
        #expect(same, comment)
        let decoded = try coder.decode(data, options: ImageDecodeOptions())
        let decodedSame = decoded.bitmap == expected
        #expect(decodedSame, comment)
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 7, height: 7))
        let (thumbnail, libspngThumbnail) = try data.withImageBytes { stream throws(ImageError) in
            (
                try PNGCoder.decodeStreamedThumbnail(from: .memory(stream), options: options),
                try PNGCoder.decodeStreamedThumbnail(from: .memory(stream), options: options, libspngOnly: true)
            )
        }
        let thumbnailSame = thumbnail?.bitmap == libspngThumbnail?.bitmap
        #expect(thumbnailSame, comment)
    }

    // MARK: - Every bit depth, colour type and filter

    static let filterChoices = [
        SPNG_FILTER_CHOICE_NONE, SPNG_FILTER_CHOICE_SUB, SPNG_FILTER_CHOICE_UP, SPNG_FILTER_CHOICE_AVG,
        SPNG_FILTER_CHOICE_PAETH, SPNG_FILTER_CHOICE_ALL,
    ]

    /// Colour type, then its bit depths.
    static let shapes: [(UInt8, [UInt8])] = [(0, [1, 2, 4, 8, 16]), (2, [8, 16]), (3, [1, 2, 4, 8]), (4, [8, 16]), (6, [8, 16])]

    @Test(arguments: filterChoices)
    func everyShapeGivesLibspngsPixels(filters: spng_filter_choice) throws {
        var generator = SystemRandomNumberGenerator()
        for (colorType, depths) in Self.shapes {
            let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(colorType)]!
            for depth in depths {
                for (width, height) in [(1, 1), (13, 9), (70, 5)] {
                    let rows = Self.randomRows(width: width, height: height, bitsPerPixel: channels * Int(depth), using: &generator)
                    let comment: Comment = "type \(colorType), \(depth) bits, \(width)×\(height), filters \(filters.rawValue)"
                    // A palette shorter than the indices reach: libspng shows the rest as opaque black.
                    let entries: Int = max(1, min(200, (1 << Int(depth)) - 3))
                    let palette: [(UInt8, UInt8, UInt8)] = (0..<entries).map { (index: Int) in
                        (UInt8(truncatingIfNeeded: index * 7), UInt8(truncatingIfNeeded: index * 31), UInt8(255 - index))
                    }
                    let plain = try Self.png(
                        width: width, height: height, colorType: colorType, bitDepth: depth, rows: rows,
                        palette: colorType == 3 ? palette : [], filters: filters)
                    try expectLibspngsPixels(plain, comment)
                    guard colorType == 0 || colorType == 2 || colorType == 3 else { continue }
                    // tRNS: palette alpha, or a colour key that the first pixel matches.
                    let first = Array(rows.prefix(channels * Int(depth) / 8 + 1))
                    let sample: (Int) -> UInt16 = { (index: Int) -> UInt16 in
                        if depth == 16 { return UInt16(first[2 * index]) << 8 | UInt16(first[2 * index + 1]) }
                        return UInt16(first[index * Int(depth) / 8] >> (8 - Int(depth)))
                    }
                    let key = colorType == 2 ? (0, sample(0), sample(1), sample(2)) : (sample(0), 0, 0, 0)
                    let transparent = try Self.png(
                        width: width, height: height, colorType: colorType, bitDepth: depth, rows: rows,
                        palette: colorType == 3 ? palette : [],
                        paletteAlpha: colorType == 3 ? palette.indices.prefix(max(1, palette.count - 1)).map { UInt8(truncatingIfNeeded: $0 * 11) } : [],
                        colorKey: colorType == 3 ? nil : key, filters: filters)
                    try expectLibspngsPixels(transparent, "\(comment), tRNS")
                }
            }
        }
    }

    @Test func theProjectsEncoderRoundTripsThroughTheNewPath() throws {
        var generator = SystemRandomNumberGenerator()
        for format in [PixelFormat.rgba8, .rgba16] {
            for keepsAlpha in [true, false] {
                let (width, height) = (45, 31)
                var pixels = [UInt8](repeating: 0, count: width * height * format.bytesPerPixel)
                for index in pixels.indices { pixels[index] = index % 97 < 40 ? UInt8(index / 97 & 255) : UInt8.random(in: 0...255, using: &generator) }
                if !keepsAlpha {
                    for pixel in 0..<(width * height) where format == .rgba8 { pixels[pixel * 4 + 3] = 255 }
                    for pixel in 0..<(width * height) where format == .rgba16 {
                        pixels[pixel * 8 + 6] = 255
                        pixels[pixel * 8 + 7] = 255
                    }
                }
                let image = Image(bitmap: Bitmap(width: width, height: height, pixelFormat: format, pixels: pixels), format: .png, hasAlpha: keepsAlpha)
                let data = try coder.encode(image, as: .png, options: ImageEncodeOptions())
                try expectLibspngsPixels(data, "\(format), alpha \(keepsAlpha)")
                let roundTrips = Self.inflatedPixels(data) == pixels
                #expect(roundTrips, "\(format), alpha \(keepsAlpha): the encoder's pixels back")
            }
        }
    }

    // MARK: - What it leaves to libspng

    @Test func interlacedAndDamagedDataIsLeftToLibspng() throws {
        let rows = PNGThumbnailTests.samples(width: 90, height: 60, channels: 4)
        let good = try Self.png(width: 90, height: 60, colorType: 6, bitDepth: 8, rows: rows, filters: SPNG_FILTER_CHOICE_ALL)
        #expect(Self.inflatedPixels(good) != nil)
        var badCRC = good
        badCRC[good.count - 13] ^= 1  // the last IDAT chunk's CRC
        var badAdler = good
        badAdler[good.count - 17] ^= 1  // the Adler-32 that ends the zlib stream
        var flipped = good
        flipped[good.count / 2] ^= 0x5A
        let truncated = Data(good.prefix(good.count * 2 / 3))
        for (name, data) in [("CRC", badCRC), ("Adler-32", badAdler), ("flipped", flipped), ("truncated", truncated)] {
            let declined = Self.inflatedPixels(data) == nil
            #expect(declined, "\(name)")
            let expected = Self.libspngStill(data)
            let decoded = Result { () throws(ImageError) in try coder.decode(data, options: ImageDecodeOptions()).bitmap }
            switch (expected, decoded) {
            case let (.success(pixels), .success(now)):
                let same = pixels == now
                #expect(same, "\(name)")
            case let (.failure(libspng), .failure(now)): #expect(libspng.code == now.code, "\(name)")
            default: Issue.record("\(name): libspng and the decoder disagree on success")
            }
        }
        // Adam7 is libspng's: PngSuite's interlaced files are checked below.
    }

    @Test func anImageDataChunkOverTheChunkLimitIsLeftToLibspng() throws {
        let rows = PNGThumbnailTests.samples(width: 200, height: 100, channels: 3)
        let data = try Self.png(width: 200, height: 100, colorType: 2, bitDepth: 8, rows: rows, filters: SPNG_FILTER_CHOICE_NONE)
        var options = ImageDecodeOptions()
        options.maxChunkBytes = 1000
        let declined = Self.inflatedPixels(data, options: options) == nil
        #expect(declined)
        let decoded = Result { () throws(ImageError) in try coder.decode(data, options: options).bitmap }
        let same = (try? decoded.get()) == (try? Self.libspngStill(data, options: options).get())
        #expect(same)
    }

    // MARK: - Real files

    @Test(
        Corpus.required, Corpus.skippedUnderThreadSanitizer,
        arguments: [
            "pngsuite", "image-png-misc", "image-png-benches", "sdwebimage", "large-images", "decompression-bombs",
            "wuffs-test-data", "image-rs-formats", "image-webp-tests", "bmpsuite", "gdk-pixbuf-tests", "sdl-image-samples",
            "jxl-conformance", "libjpeg-turbo-testimages", "libwebp-test-data", "av1-avif-testfiles", "resvg-tests",
        ])
    func corpusPNGsDecodeAsLibspngDecodesThem(_ folder: String) throws {
        var inflated = 0
        var refused = 0
        let paths = Corpus.relativePaths(under: folder, extensions: ["png"])
        #expect(!paths.isEmpty)
        for path in paths {
            let data = try Corpus.data("\(folder)/\(path)")
            let expected = Self.libspngStill(data)
            let decoded = Result { () throws(ImageError) in
                try data.withImageBytes { stream throws(ImageError) in try PNGCoder.decodeStill(stream, options: ImageDecodeOptions()) }
            }
            switch (expected, decoded) {
            case let (.success(pixels), .success(now)):
                let same = now.bitmap == pixels
                #expect(same, "\(path)")
                if let fast = Self.inflatedPixels(data) {
                    let fastSame = fast == pixels.pixels
                    #expect(fastSame, "\(path)")
                    inflated += 1
                }
            case let (.failure(libspng), .failure(now)):
                #expect(libspng.code == now.code, "\(path)")
                let declined = Self.inflatedPixels(data) == nil
                #expect(declined, "\(path): taken although libspng refuses it")
                refused += 1
            default:
                Issue.record("\(path): libspng and the decoder disagree on success")
            }
        }
        // Every non-interlaced file libspng decodes takes the new path, but for a few shapes it
        // leaves to libspng (more than 1 MiB of chunks around the image data, say).
        if folder != "decompression-bombs" { #expect(inflated > 0, "no file of \(folder) took the new path") }
        if folder == "pngsuite" { #expect(refused == 14, "PngSuite's 14 x*.png files") }
    }

    @Test(Corpus.required, Corpus.skippedUnderThreadSanitizer)
    func cutAndDamagedCorpusFilesGiveATypedErrorOrLibspngsPixels() throws {
        let files = ["pngsuite/basn2c16.png", "pngsuite/basn3p04.png", "pngsuite/basn0g02.png", "image-png-benches/kodim23.png"]
        for file in files where FileManager.default.fileExists(atPath: Corpus.url(file).path) {
            let good = try Corpus.data(file)
            var variants: [(String, Data)] = [1, 3, 13, good.count / 3, good.count / 2].map { ("cut \($0)", Data(good.dropLast($0))) }
            for offset in stride(from: 40, to: good.count, by: max(1, good.count / 16)) {
                var flipped = good
                flipped[offset] ^= 0x10
                variants.append(("flip \(offset)", flipped))
            }
            for (name, data) in variants {
                let expected = Self.libspngStill(data)
                let decoded = Result { () throws(ImageError) in
                    try data.withImageBytes { stream throws(ImageError) in try PNGCoder.decodeStill(stream, options: ImageDecodeOptions()).bitmap }
                }
                switch (expected, decoded) {
                case let (.success(pixels), .success(now)):
                    let same = pixels == now
                    #expect(same, "\(file) \(name)")
                case let (.failure(libspng), .failure(now)): #expect(libspng.code == now.code, "\(file) \(name)")
                case (.failure, .success): Issue.record("\(file) \(name): decoded although libspng refuses it")
                case (.success, .failure): Issue.record("\(file) \(name): refused although libspng decodes it")
                }
            }
        }
    }
}
