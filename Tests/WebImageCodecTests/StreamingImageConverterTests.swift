import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
import WebImageConversion
@testable import WebImageJPEG
import WebImageTestSupport

/// Full-size JPEG → JPEG/PNG conversion in strips on two threads (issue 20): the JPEG files
/// are the ones the whole-frame path writes and the PNG files hold its pixels (the
/// whole-frame PNG encoder compresses with libdeflate, the streamed one with zlib), conversions that need the whole frame are
/// declined, and the tool's peak memory stays under one frame.
@Suite struct StreamingImageConverterTests {
    // MARK: - Fixtures

    /// A `width` × `height` JPEG of gradients and deterministic noise, compressed with
    /// `lumaSampling`, written row by row (so large sizes cost little to make).
    static func photo(width: Int, height: Int, lumaSampling: PixelSize = PixelSize(width: 2, height: 2)) throws -> Data {
        var state: UInt32 = 7
        let noise = (0..<(width * 3 + 256)).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(state >> 26)
        }
        let compressor = try JPEGCompressor(size: PixelSize(width: width, height: height), pixels: .rgb, quality: 85, lumaSampling: lumaSampling)
        var row = [UInt8](repeating: 0, count: width * 3)
        for y in 0..<height {
            let shift = (y * 7) % 256
            let green = UInt8(y * 200 / height)
            for x in 0..<width {
                let red = UInt8(x * 200 / width)
                let base = x * 3
                row[base] = red &+ noise[base + shift]
                row[base + 1] = green &+ noise[base + 1 + shift]
                row[base + 2] = noise[base + 2 + shift] &* 3
            }
            let written = row.withUnsafeBytes { bytes in
                Result { () throws(ImageError) in try compressor.write(rows: bytes, bytesPerRow: width * 3) }
            }
            try written.get()
        }
        return try compressor.finish()
    }

    /// `jpeg` with an EXIF segment giving `orientation` just after the SOI marker.
    static func withEXIFOrientation(_ jpeg: Data, _ orientation: UInt8) -> Data {
        let tiff: [UInt8] = [
            0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0x01, 0x00,
            0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, orientation, 0x00, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00,
        ]
        let payload = Array("Exif\0\0".utf8) + tiff
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return Data([0xFF, 0xD8] + segment + jpeg.dropFirst(2))
    }

    /// What today's whole-frame path writes: decode, then encode.
    static func wholeFrame(_ jpeg: Data, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        let image = try JPEGCoder().decode(jpeg, options: ImageDecodeOptions())
        return try ImageCodersManager.shared.encode(image, as: format, options: options)
    }

    static func streamed(_ jpeg: Data, as format: ImageFormat, options: ImageEncodeOptions, in folder: TemporaryDirectory) throws -> Data? {
        let url = folder.appending("out.\(format.rawValue)")
        guard try StreamingImageConverter.convert(jpeg, to: format, writingTo: url, options: options) != nil else { return nil }
        return try Data(contentsOf: url)
    }

    // MARK: - Same files as the whole-frame path

    @Test(arguments: [0.75, 0.9, 0.97])
    func streamedJPEGIsTheFileTheWholeFramePathWrites(quality: Double) throws {
        let folder = TemporaryDirectory(prefix: "streaming")
        let options = ImageEncodeOptions(quality: quality)
        for sampling in [PixelSize(width: 2, height: 2), PixelSize(width: 1, height: 1), PixelSize(width: 3, height: 1)] {
            let input = try Self.photo(width: 301, height: 203, lumaSampling: sampling)
            let streamed = try #require(try Self.streamed(input, as: .jpeg, options: options, in: folder))
            #expect(streamed == (try Self.wholeFrame(input, as: .jpeg, options: options)))
        }
    }

    @Test func streamedPNGHoldsThePixelsTheWholeFramePathWrites() throws {
        let folder = TemporaryDirectory(prefix: "streaming")
        let input = try Self.photo(width: 257, height: 300)
        let streamed = try #require(try Self.streamed(input, as: .png, options: ImageEncodeOptions(), in: folder))
        #expect(try Self.pngPixels(streamed) == (try Self.pngPixels(Self.wholeFrame(input, as: .png, options: ImageEncodeOptions()))))
        let decoded = try PNGCoder().decode(streamed, options: ImageDecodeOptions())
        #expect(decoded.bitmap == (try JPEGCoder().decode(input, options: ImageDecodeOptions())).bitmap)
    }

    @Test func progressiveInputStreamsToo() throws {
        let folder = TemporaryDirectory(prefix: "streaming")
        let input = JPEGDecoderLimitsTests.progressiveJPEG(declaring: PixelSize(width: 640, height: 480), scanBytes: 1000)
        for format in [ImageFormat.jpeg, .png] {
            let streamed = try #require(try Self.streamed(input, as: format, options: ImageEncodeOptions(), in: folder))
            let whole = try Self.wholeFrame(input, as: format, options: ImageEncodeOptions())
            if format == .png {
                #expect(try Self.pngPixels(streamed) == (try Self.pngPixels(whole)))
            } else {
                #expect(streamed == whole)
            }
        }
    }

    /// The pixels of a PNG file.
    static func pngPixels(_ png: Data) throws -> Bitmap {
        try PNGCoder().decode(png, options: ImageDecodeOptions()).bitmap
    }

    // MARK: - What needs the whole frame

    @Test func declinesConversionsThatNeedTheWholeFrame() throws {
        let folder = TemporaryDirectory(prefix: "streaming")
        let input = try Self.photo(width: 64, height: 48)
        let url = folder.appending("out.jpg")
        let thumbnail = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 16, height: 16))
        #expect(try StreamingImageConverter.convert(input, to: .jpeg, writingTo: url, decodeOptions: thumbnail) == nil)
        #expect(try StreamingImageConverter.convert(input, to: .webp, writingTo: url) == nil)
        #expect(try StreamingImageConverter.convert(input, to: .gif, writingTo: url) == nil)
        let png = try ImageCodersManager.shared.encode(try JPEGCoder().decode(input, options: ImageDecodeOptions()), as: .png)
        #expect(try StreamingImageConverter.convert(png, to: .jpeg, writingTo: url) == nil)
        #expect(try StreamingImageConverter.convert(Self.withEXIFOrientation(input, 6), to: .jpeg, writingTo: url) == nil)
        let cmyk = try JPEGCoderTests.cmykJPEG(blocks: [[0, 255, 255, 255], [255, 255, 255, 255]])
        #expect(try StreamingImageConverter.convert(cmyk, to: .png, writingTo: url) == nil)
        #expect(!FileManager.default.fileExists(atPath: url.path))
        // An orientation of 1 (up) streams.
        #expect(try StreamingImageConverter.convert(Self.withEXIFOrientation(input, 1), to: .jpeg, writingTo: url) == PixelSize(width: 64, height: 48))
    }

    @Test func truncatedInputFailsAndLeavesNoFile() throws {
        let folder = TemporaryDirectory(prefix: "streaming")
        let input = try Self.photo(width: 200, height: 400)
        for format in [ImageFormat.jpeg, .png] {
            let url = folder.appending("out.\(format.rawValue)")
            let error = #expect(throws: ImageError.self) {
                try StreamingImageConverter.convert(input.prefix(input.count / 2), to: format, writingTo: url)
            }
            #expect(error?.code == .badImageData)
            #expect(error?.message.contains("truncated") == true)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
        }
    }

    @Test func limitsStillApply() throws {
        let folder = TemporaryDirectory(prefix: "streaming")
        var options = ImageDecodeOptions()
        options.maxPixelCount = 1000
        #expect(throws: ImageError.self) {
            try StreamingImageConverter.convert(try Self.photo(width: 64, height: 48), to: .png, writingTo: folder.appending("a.png"), decodeOptions: options)
        }
        let bomb = JPEGDecoderLimitsTests.progressiveJPEG(declaring: PixelSize(width: 32000, height: 32000))
        let error = #expect(throws: ImageError.self) {
            try StreamingImageConverter.convert(bomb, to: .jpeg, writingTo: folder.appending("b.jpg"))
        }
        #expect(error?.code == .imageTooLarge)
    }

    // MARK: - The tool

    @Test(.enabled(if: PeakMemoryRun.isAvailable, "needs GNU time"), BuiltExecutable.webimageIsBuilt)
    func theToolConvertsAFullSizePhotoInLessMemoryThanOneFrame() async throws {
        let folder = TemporaryDirectory(prefix: "streaming")
        let size = PixelSize(width: 4000, height: 4000)
        let input = folder.appending("in.jpg")
        let jpeg = try Self.photo(width: size.width, height: size.height)
        try jpeg.write(to: input)
        let tool = try BuiltExecutable.url(named: "webimage")
        let frameBytes = size.width * size.height * 4
        for format in ["jpg", "png"] {
            let output = folder.appending("out.\(format)")
            let run = try await PeakMemoryRun.run(tool, ["convert", input.path, output.path], scratch: folder.url)
            #expect(run.status == 0)
            // ThreadSanitizer's shadow memory inflates the child's resident size; the bound
            // is checked in uninstrumented builds only.
            if !ThreadSanitizer.isActive {
                #expect(run.peakResidentBytes < frameBytes, "peak \(run.peakResidentBytes >> 20) MiB for \(format)")
            }
            let written = try ImageCodersManager.shared.decode(try Data(contentsOf: output))
            #expect(written.pixelSize == size)
        }
    }
}
