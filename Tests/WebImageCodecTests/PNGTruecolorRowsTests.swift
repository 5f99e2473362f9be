import CPNG
import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
@testable import WebImagePNG
import WebImageTestSupport

/// The pixel-at-a-time defilter for 8-bit RGB and RGBA PNG files (and, through the coder,
/// for PNGs in memory, which ``PNGInflatedImage`` defilters with it): libspng's pixels for
/// every filter type, and libspng's answer — pixels or error — wherever the data is not one
/// it answers for.
@Suite
struct PNGTruecolorRowsTests {
    let coder = PNGCoder()

    /// A PNG libspng writes from `samples` with only the filters of `filters` to choose from.
    static func png(width: Int, height: Int, channels: Int, filters: spng_filter_choice, samples: [UInt8]) throws -> Data {
        try PNGThumbnailTests.png(
            width: width, height: height, colorType: channels == 4 ? SPNG_COLOR_TYPE_TRUECOLOR_ALPHA : SPNG_COLOR_TYPE_TRUECOLOR,
            samples: samples, filters: filters)
    }

    /// libspng's own decode of `data` to RGBA8 (tRNS applied), or its error status.
    static func libspngPixels(_ data: Data) -> Result<[UInt8], SPNGStatus> {
        data.withUnsafeBytes { stream in
            guard let context = spng_ctx_new(0) else { return .failure(SPNGStatus(code: -1)) }
            defer { spng_ctx_free(context) }
            var status = spng_set_png_buffer(context, stream.baseAddress, stream.count)
            var size = 0
            if status == 0 { status = spng_decoded_image_size(context, Int32(SPNG_FMT_RGBA8.rawValue), &size) }
            guard status == 0 else { return .failure(SPNGStatus(code: status)) }
            var pixels = [UInt8](repeating: 0, count: size)
            status = spng_decode_image(context, &pixels, size, Int32(SPNG_FMT_RGBA8.rawValue), Int32(SPNG_DECODE_TRNS.rawValue))
            guard status == 0 else { return .failure(SPNGStatus(code: status)) }
            // The chunks after the image data; data that simply ends before IEND is accepted.
            status = spng_decode_chunks(context)
            guard status == 0 || status == Int32(SPNG_EOF.rawValue) || status == Int32(SPNG_IO_EOF.rawValue) else {
                return .failure(SPNGStatus(code: status))
            }
            return .success(pixels)
        }
    }

    /// A libspng status code, as a failure.
    struct SPNGStatus: Error, Equatable {
        let code: Int32
    }

    /// The rows ``PNGTruecolorRows`` gives for `data` read from a file, joined; `nil` when
    /// it declines.
    static func fastPixels(_ data: Data) throws -> [UInt8]? {
        var pixels: [UInt8] = []
        let decoded = try forEachFastRow(of: data) { row, rowBytes in
            pixels.append(contentsOf: UnsafeRawBufferPointer(start: row, count: rowBytes))
        }
        return decoded ? pixels : nil
    }

    /// Calls `body` with each row ``PNGTruecolorRows`` gives for `data` written to a file,
    /// and its length; whether it decoded them all (`false` when it declines the shape).
    static func forEachFastRow(of data: Data, _ body: (UnsafeRawPointer, Int) -> Void) throws -> Bool {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("png-rows-\(UUID().uuidString).png").path
        try data.write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try #require(fopen(path, "rb"))
        defer { fclose(file) }
        let context = try SPNGContext.decoder(reading: file, options: ImageDecodeOptions())
        let header = try context.header()
        guard try PNGTruecolorRows.canDecode(header, hasTransparencyChunk: context.hasTransparencyChunk()) else { return false }
        let rowBytes = Int(header.width) * 4
        return PNGTruecolorRows.forEachRow(reading: file, header: header, options: ImageDecodeOptions()) { body($0, rowBytes) }
    }

    /// A chunk of `type` holding `body`, with its CRC.
    static func chunk(_ type: String, _ body: [UInt8]) -> Data {
        var chunk = Data()
        withUnsafeBytes(of: UInt32(body.count).bigEndian) { chunk.append(contentsOf: $0) }
        let typeAndBody = Array(type.utf8) + body
        chunk.append(contentsOf: typeAndBody)
        let crc = UInt32(typeAndBody.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) })
        withUnsafeBytes(of: crc.bigEndian) { chunk.append(contentsOf: $0) }
        return chunk
    }

    /// A PNG of `width` × `height` RGB pixels whose rows are filtered as `filteredRows` says
    /// (each row: filter type, then bytes), compressed with zlib into one IDAT.
    static func handMadePNG(width: Int, height: Int, filteredRows: [UInt8]) -> Data {
        var data = Data(PNGChunkReader.signature)
        var header: [UInt8] = []
        for value in [UInt32(width), UInt32(height)] { withUnsafeBytes(of: value.bigEndian) { header.append(contentsOf: $0) } }
        header += [8, 2, 0, 0, 0]
        data.append(chunk("IHDR", header))
        var compressedLength = compressBound(uLong(filteredRows.count))
        var compressed = [UInt8](repeating: 0, count: Int(compressedLength))
        _ = compress(&compressed, &compressedLength, filteredRows, uLong(filteredRows.count))
        data.append(chunk("IDAT", Array(compressed.prefix(Int(compressedLength)))))
        data.append(chunk("IEND", []))
        return data
    }

    // MARK: - Every filter

    @Test(
        arguments: [3, 4],
        [
            SPNG_FILTER_CHOICE_NONE, SPNG_FILTER_CHOICE_SUB, SPNG_FILTER_CHOICE_UP, SPNG_FILTER_CHOICE_AVG,
            SPNG_FILTER_CHOICE_PAETH, SPNG_FILTER_CHOICE_ALL,
        ])
    func eachFilterGivesLibspngsPixels(channels: Int, filters: spng_filter_choice) throws {
        // Odd sizes, and samples that vary in every pixel and channel, so that every Paeth
        // choice and every wrap-around happens.
        for (width, height) in [(1, 1), (37, 23), (130, 3)] {
            let samples = PNGThumbnailTests.samples(width: width, height: height, channels: channels)
            let data = try Self.png(width: width, height: height, channels: channels, filters: filters, samples: samples)
            let expected = try Self.libspngPixels(data).get()
            let fast = try #require(try Self.fastPixels(data), "\(width)×\(height): declined")
            #expect(fast == expected, "\(width)×\(height), \(channels) channels, filters \(filters.rawValue)")
            #expect(try coder.decode(data, options: ImageDecodeOptions()).bitmap.pixels == expected)
        }
    }

    @Test func randomSamplesGiveLibspngsPixels() throws {
        var generator = SystemRandomNumberGenerator()
        for channels in [3, 4] {
            let samples = (0..<(61 * 47 * channels)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let data = try Self.png(width: 61, height: 47, channels: channels, filters: SPNG_FILTER_CHOICE_PAETH, samples: samples)
            #expect(try Self.fastPixels(data) == Self.libspngPixels(data).get())
        }
    }

    @Test func aThumbnailEqualsLibspngsStreamedThumbnail() throws {
        let samples = PNGThumbnailTests.samples(width: 300, height: 200, channels: 3)
        let data = try Self.png(width: 300, height: 200, channels: 3, filters: SPNG_FILTER_CHOICE_ALL, samples: samples)
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 64, height: 64))
        let (fast, libspng) = try data.withImageBytes { stream throws(ImageError) in
            (
                try PNGCoder.decodeStreamedThumbnail(stream, options: options),
                try PNGCoder.decodeStreamedThumbnail(from: .memory(stream), options: options, libspngOnly: true)
            )
        }
        let thumbnail = try #require(fast)
        #expect(thumbnail.bitmap == libspng?.bitmap)
        #expect(thumbnail.hasAlpha == false)
    }

    // MARK: - What it leaves to libspng

    @Test func anUnknownFilterTypeIsLeftToLibspng() throws {
        var rows: [UInt8] = []
        for y in 0..<4 { rows += [y == 2 ? 5 : 4] + (0..<(5 * 3)).map { UInt8($0 * 11 + y) } }
        let data = Self.handMadePNG(width: 5, height: 4, filteredRows: rows)
        #expect(try Self.fastPixels(data) == nil)
        #expect(throws: Self.SPNGStatus.self) { try Self.libspngPixels(data).get() }
        #expect(throws: ImageError.self) { try coder.decode(data, options: ImageDecodeOptions()) }
    }

    @Test func missingAndSurplusRowsAreLeftToLibspng() throws {
        let row: [UInt8] = [0] + (0..<(5 * 3)).map { UInt8($0) }
        for rowCount in [3, 5] {
            let data = Self.handMadePNG(width: 5, height: 4, filteredRows: Array(repeating: row, count: rowCount).flatMap { $0 })
            #expect(try Self.fastPixels(data) == nil, "\(rowCount) rows")
            let expected = Self.libspngPixels(data)
            let decoded = Result { try coder.decode(data, options: ImageDecodeOptions()).bitmap.pixels }
            #expect((try? expected.get()) == (try? decoded.get()), "\(rowCount) rows")
        }
    }

    @Test func damageIsLeftToLibspng() throws {
        let samples = PNGThumbnailTests.samples(width: 90, height: 60, channels: 4)
        let good = try Self.png(width: 90, height: 60, channels: 4, filters: SPNG_FILTER_CHOICE_ALL, samples: samples)
        var flipped = good
        flipped[good.count / 2] ^= 0x5A
        let truncated = Data(good.prefix(good.count * 2 / 3))
        // A tIME chunk in the middle of the image data: the IDAT chunks no longer follow one another.
        let split = Self.withChunk(Self.chunk("tIME", [7, 234, 12, 6, 12, 0, 0]), afterFirstImageDataOf: good)
        for (name, data) in [("flipped", flipped), ("truncated", truncated), ("split", split)] {
            #expect(try Self.fastPixels(data) == nil, "\(name)")
            let expected = Self.libspngPixels(data)
            let decoded = Result { try coder.decode(data, options: ImageDecodeOptions()).bitmap.pixels }
            switch (expected, decoded) {
            case let (.success(pixels), .success(now)): #expect(pixels == now, "\(name)")
            case (.failure, .failure): break
            default: Issue.record("\(name): libspng and the decoder disagree on success (\((try? expected.get()) != nil) against \((try? decoded.get()) != nil))")
            }
        }
        // Declined before any row is decoded, so that libspng decodes such a file once, not after this path.
        for data in [truncated, split] {
            var rows = 0
            let declined = try !Self.forEachFastRow(of: data) { _, _ in rows += 1 }
            #expect(declined && rows == 0)
        }
    }

    /// `png` with `chunk` inserted after its first IDAT chunk.
    static func withChunk(_ chunk: Data, afterFirstImageDataOf png: Data) -> Data {
        png.withUnsafeBytes { stream in
            var reader = try! PNGChunkReader(stream)
            while let next = try! reader.next() {
                if next.type == .imageData { return png.prefix(next.bytes.upperBound) + chunk + png.suffix(from: next.bytes.upperBound) }
            }
            return png
        }
    }

    @Test func chunksAfterTheImageDataAreCheckedByLibspng() throws {
        let samples = PNGThumbnailTests.samples(width: 90, height: 60, channels: 3)
        let good = try Self.png(width: 90, height: 60, channels: 3, filters: SPNG_FILTER_CHOICE_ALL, samples: samples)
        let exif: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 0]
        let accepted = [
            ("text", Self.chunk("tEXt", Array("Comment\u{0}after".utf8))),
            ("time", Self.chunk("tIME", [7, 234, 12, 6, 12, 0, 0])),
            ("exif", Self.chunk("eXIf", exif)),
        ]
        for (name, chunk) in accepted {
            let data = good.prefix(good.count - 12) + chunk + good.suffix(12)
            let expected = try Self.libspngPixels(data).get()
            #expect(try Self.fastPixels(data) == expected, "\(name): not decoded by the new path, or other pixels")
        }
        // Whatever libspng makes of a doubtful chunk after the image data, the decoder agrees:
        // refused, it is refused here too and left to libspng. (libspng 0.7.3 accepts all four
        // after the image data, so today each takes the new path.)
        let doubtful = [
            ("empty keyword", Self.chunk("tEXt", Array("\u{0}after".utf8))),
            ("a thirteenth month", Self.chunk("tIME", [7, 234, 13, 6, 12, 0, 0])),
            ("a critical chunk", Self.chunk("PLTE", [0, 0, 0])),
            (
                "a wrong CRC",
                {
                    var chunk = Self.chunk("tEXt", Array("Comment\u{0}after".utf8))
                    chunk[chunk.count - 1] ^= 1
                    return chunk
                }()
            ),
        ]
        for (name, chunk) in doubtful {
            let data = good.prefix(good.count - 12) + chunk + good.suffix(12)
            switch Self.libspngPixels(data) {
            case let .success(pixels):
                #expect(try Self.fastPixels(data) == pixels, "\(name)")
            case .failure:
                #expect(try Self.fastPixels(data) == nil, "\(name)")
                #expect(throws: ImageError.self, "\(name)") { try coder.decode(data, options: ImageDecodeOptions()) }
            }
        }
    }

    @Test func aFileDecodesAsItsDataDoes() throws {
        let samples = PNGThumbnailTests.samples(width: 400, height: 300, channels: 3)
        let good = try Self.png(width: 400, height: 300, channels: 3, filters: SPNG_FILTER_CHOICE_ALL, samples: samples)
        var flipped = good
        flipped[good.count / 2] ^= 0x5A
        let withText = good.prefix(good.count - 12) + Self.chunk("tEXt", Array("Comment\u{0}after".utf8)) + good.suffix(12)
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 50, height: 50))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("png-rows-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cases = [("good", good), ("flipped", flipped), ("truncated", Data(good.prefix(good.count * 2 / 3))), ("text after", Data(withText))]
        for (name, data) in cases {
            let path = directory.appendingPathComponent("\(name).png").path
            try data.write(to: URL(fileURLWithPath: path))
            let fromFile = Result { () throws(ImageError) in try PNGCoder.streamedThumbnail(atPath: path, options: options)?.bitmap }
            let fromData = Result { () throws(ImageError) in
                try data.withImageBytes { stream throws(ImageError) in
                    try PNGCoder.decodeStreamedThumbnail(from: .memory(stream), options: options, libspngOnly: true)?.bitmap
                }
            }
            switch (fromFile, fromData) {
            case let (.success(file), .success(memory)): #expect(file == memory, "\(name)")
            case let (.failure(file), .failure(memory)): #expect(file.code == memory.code, "\(name)")
            default: Issue.record("\(name): the file and libspng's decode of its data disagree on success")
            }
        }
        // The good file is read by the new path itself, to libspng's pixels.
        let file = try #require(fopen(directory.appendingPathComponent("good.png").path, "rb"))
        defer { fclose(file) }
        let header = try SPNGContext.decoder(reading: file, options: ImageDecodeOptions()).header()
        var pixels: [UInt8] = []
        let decoded = PNGTruecolorRows.forEachRow(reading: file, header: header, options: ImageDecodeOptions()) { row in
            pixels.append(contentsOf: UnsafeRawBufferPointer(start: row, count: 400 * 4))
        }
        #expect(decoded)
        #expect(pixels == (try Self.libspngPixels(good).get()))
    }

    // MARK: - Real files

    @Test(Corpus.required, Corpus.skippedUnderThreadSanitizer, arguments: ["pngsuite", "image-png-benches"])
    func corpusPNGsDecodeAsLibspngDecodesThem(_ folder: String) throws {
        var fast = 0
        for file in Corpus.files(in: folder, extensions: ["png"]) {
            let data = try Data(contentsOf: file)
            let name = file.lastPathComponent
            guard case let .success(expected) = Self.libspngPixels(data), !data.withUnsafeBytes({ (try? APNGAnimation(parsing: $0)) != nil }),
                let header = try? data.withUnsafeBytes({ try SPNGContext.decoder(for: $0, options: ImageDecodeOptions()).header() }),
                header.bit_depth == 8
            else { continue }
            if let pixels = try Self.fastPixels(data) {
                #expect(pixels == expected, "\(name)")
                fast += 1
            }
            #expect(try coder.decode(data, options: ImageDecodeOptions()).bitmap.pixels == expected, "\(name)")
        }
        #expect(fast > 0, "no file of \(folder) took the truecolour path")
    }
}
