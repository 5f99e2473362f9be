import CJPEG
import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
@testable import WebImageJPEG
import WebImageTestSupport

/// The JPEG decoder's own accounting (issue 21): the memory of progressive files counted
/// before decoding, truncation seen behind other warnings, and sampling factors
/// TurboJPEG's API refuses.
@Suite struct JPEGDecoderLimitsTests {
    let coder = JPEGCoder()

    // MARK: - Fixtures

    /// A tiny progressive JPEG that declares `size`: quantisation table, `SOF2` with
    /// 4:2:0 sampling, one DC Huffman table whose single code means "no change", a DC
    /// scan of `scanBytes` zero bytes, and the end marker.
    static func progressiveJPEG(declaring size: PixelSize, scanBytes: Int = 440) -> Data {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += [0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64)
        let (width, height) = (UInt8(size.width >> 8), UInt8(size.width & 0xFF))
        let (rows, rowsLow) = (UInt8(size.height >> 8), UInt8(size.height & 0xFF))
        bytes += [0xFF, 0xC2, 0x00, 0x11, 0x08, rows, rowsLow, width, height, 0x03]
        bytes += [0x01, 0x22, 0x00, 0x02, 0x11, 0x00, 0x03, 0x11, 0x00]
        bytes += [0xFF, 0xC4, 0x00, 0x14, 0x00, 0x01] + [UInt8](repeating: 0, count: 15) + [0x00]
        bytes += [0xFF, 0xDA, 0x00, 0x0C, 0x03, 0x01, 0x00, 0x02, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00]
        bytes += [UInt8](repeating: 0, count: scanBytes)
        bytes += [0xFF, 0xD9]
        return Data(bytes)
    }

    /// `jpeg` with `junk` inserted just before its first `SOS` marker.
    static func insertingJunkBeforeScan(_ jpeg: Data, junk: [UInt8] = [0x12, 0x34, 0x56]) throws -> Data {
        let bytes = [UInt8](jpeg)
        let scan = try #require((2..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
        return Data(bytes[..<scan] + junk + bytes[scan...])
    }

    /// What TurboJPEG 2.1's own decode (as the coder used it before) says of `jpeg`:
    /// `nil` when it refuses, else its only warning (TurboJPEG keeps the first).
    static func turboJPEGWarning(_ jpeg: Data) -> String?? {
        let handle = tjInitDecompress()
        defer { tjDestroy(handle) }
        return jpeg.withUnsafeBytes { bytes -> String?? in
            let base = bytes.bindMemory(to: UInt8.self).baseAddress
            var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
            guard
                tjDecompressHeader3(handle, base, UInt(bytes.count), &width, &height, &subsampling, &colorspace) == 0
                    || tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue)
            else { return .none }
            var pixels = [UInt8](repeating: 0, count: Int(width) * Int(height) * 4)
            let status = tjDecompress2(
                handle, base, UInt(bytes.count), &pixels, width, 0, height, Int32(TJPF_RGBA.rawValue), TJFLAG_LIMITSCANS
            )
            if status == 0 { return .some(nil) }
            guard tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue) else { return .none }
            return .some(String(cString: tjGetErrorStr2(handle)))
        }
    }

    /// A gradient JPEG compressed with luminance sampled `lumaSampling` times as densely
    /// as chroma.
    static func jpeg(_ bitmap: Bitmap, lumaSampling: PixelSize, quality: Int = 90) throws -> Data {
        let compressor = try JPEGCompressor(
            size: bitmap.size, pixels: .rgba, quality: quality, lumaSampling: lumaSampling
        )
        let written = bitmap.pixels.withUnsafeBytes { bytes in
            Result { () throws(ImageError) in try compressor.write(rows: bytes, bytesPerRow: bitmap.bytesPerRow) }
        }
        try written.get()
        return try compressor.finish()
    }

    // MARK: - The same pixels and files as TurboJPEG

    @Test(arguments: [0.5, 0.75, 0.9, 0.97])
    func writesAndReadsWhatTurboJPEGDid(quality: Double) throws {
        let bitmap = JPEGCoderTests.gradient(width: 123, height: 77)
        let ours = try coder.encode(Image(bitmap: bitmap), as: .jpeg, options: ImageEncodeOptions(quality: quality))
        let compressor = try #require(tjInitCompress())
        defer { tjDestroy(compressor) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let subsampling = quality >= 0.9 ? TJSAMP_444 : TJSAMP_420
        let status = tjCompress2(
            compressor, bitmap.pixels, 123, 0, 77, Int32(TJPF_RGBA.rawValue),
            &output, &size, Int32(subsampling.rawValue), Int32(quality * 100), 0
        )
        defer { tjFree(output) }
        try #require(status == 0)
        #expect(ours == Data(bytes: try #require(output), count: Int(size)))

        let decompressor = try #require(tjInitDecompress())
        defer { tjDestroy(decompressor) }
        var pixels = [UInt8](repeating: 0, count: 123 * 77 * 4)
        let decoded = ours.withUnsafeBytes { bytes in
            tjDecompress2(
                decompressor, bytes.bindMemory(to: UInt8.self).baseAddress, UInt(bytes.count),
                &pixels, 123, 0, 77, Int32(TJPF_RGBA.rawValue), 0
            )
        }
        try #require(decoded == 0)
        #expect(try coder.decode(ours, options: ImageDecodeOptions()).bitmap.pixels == pixels)
    }

    // MARK: - 21.1 memory of multi-scan files

    @Test func countsTheCoefficientsOfAProgressiveFileAgainstTheLimitEvenForAThumbnail() throws {
        let bomb = Self.progressiveJPEG(declaring: PixelSize(width: 32000, height: 32000))
        #expect((500...600).contains(bomb.count))
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 64, height: 64))
        let error = #expect(throws: ImageError.self) { try coder.decode(bomb, options: options) }
        #expect(error?.code == .imageTooLarge)
        #expect(error?.message.contains("coefficients") == true)
        #expect(throws: ImageError.self) { try coder.decodeIncrementally(bomb, isComplete: false, options: options) }

        // The same file at a size whose coefficients fit decodes (to flat grey).
        let small = Self.progressiveJPEG(declaring: PixelSize(width: 640, height: 480), scanBytes: 1000)
        let image = try coder.decode(small, options: options)
        #expect(image.pixelSize == PixelSize(width: 64, height: 48))
    }

    @Test(.enabled(if: PeakMemoryRun.isAvailable, "needs GNU time"), BuiltExecutable.webimageIsBuilt)
    func aProgressiveBombWithAThumbnailStaysUnderTheLimitInAChildProcess() async throws {
        let scratch = TemporaryDirectory(prefix: "jpeg-bomb")
        let input = scratch.url.appendingPathComponent("bomb.jpg")
        try Self.progressiveJPEG(declaring: PixelSize(width: 32000, height: 32000)).write(to: input)
        let tool = try BuiltExecutable.url(named: "webimage")
        let run = try await PeakMemoryRun.run(
            tool, ["convert", input.path, scratch.url.appendingPathComponent("out.png").path, "--thumbnail", "64x64"],
            scratch: scratch.url
        )
        #expect(run.status == 1)
        // libjpeg alone would allocate 3 GB of coefficients here; the limit is 1 GiB.
        #expect(run.peakResidentBytes < ImageDecodeOptions.defaultMaxTotalBytes)
        #expect(run.peakResidentBytes < 200 << 20)
    }

    // MARK: - 21.7 truncation behind other warnings

    @Test func aTruncatedFileWithJunkBeforeAMarkerIsNeverComplete() throws {
        let original = JPEGCoderTests.gradient(width: 64, height: 256)
        let whole = try Self.insertingJunkBeforeScan(try coder.encode(Image(bitmap: original), as: .jpeg, options: ImageEncodeOptions()))
        let truncated = whole.prefix(whole.count * 6 / 10)

        // TurboJPEG kept only the first warning, the junk, and called the picture whole.
        let before = try #require(Self.turboJPEGWarning(truncated))
        #expect(before?.contains("extraneous bytes") == true)

        let error = #expect(throws: ImageError.self) { try coder.decode(truncated, options: ImageDecodeOptions()) }
        #expect(error?.code == .badImageData)
        #expect(error?.message.contains("truncated") == true)

        // Progressive loading still shows the rows that arrived.
        let partial = try #require(try coder.decodeIncrementally(truncated, isComplete: false, options: ImageDecodeOptions()))
        #expect(partial.pixelSize == original.size)
        let top = Bitmap(width: 64, height: 64, pixels: Array(partial.bitmap.pixels.prefix(64 * 64 * 4)))
        let originalTop = Bitmap(width: 64, height: 64, pixels: Array(original.pixels.prefix(64 * 64 * 4)))
        #expect(JPEGCoderTests.meanDifference(top, originalTop) < 2)

        // The untruncated file with the same junk is damaged but complete: it decodes.
        let image = try coder.decode(whole, options: ImageDecodeOptions())
        #expect(JPEGCoderTests.meanDifference(image.bitmap, original) < 2)
    }

    // MARK: - 21.8 sampling factors TurboJPEG refuses

    @Test func decodesSamplingFactorsTurboJPEGCannotName() throws {
        let original = JPEGCoderTests.gradient(width: 96, height: 40)
        for sampling in [PixelSize(width: 3, height: 1), PixelSize(width: 1, height: 3), PixelSize(width: 4, height: 2)] {
            let jpeg = try Self.jpeg(original, lumaSampling: sampling)
            #expect(Self.turboJPEGWarning(jpeg) == nil, "TurboJPEG 2.1 refuses \(sampling) sampling")
            let image = try coder.decode(jpeg, options: ImageDecodeOptions())
            #expect(image.pixelSize == original.size)
            #expect(JPEGCoderTests.meanDifference(image.bitmap, original) < 3)
            let thumbnail = try coder.decode(jpeg, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 24, height: 24)))
            #expect(thumbnail.pixelSize == PixelSize(width: 24, height: 10))
        }
    }

    @Test func limitsStillApplyToUnusualSamplingFactors() throws {
        let jpeg = try Self.jpeg(JPEGCoderTests.gradient(width: 96, height: 40), lumaSampling: PixelSize(width: 3, height: 1))
        var options = ImageDecodeOptions()
        options.maxPixelCount = 1000
        let error = #expect(throws: ImageError.self) { try coder.decode(jpeg, options: options) }
        #expect(error?.code == .imageTooLarge)
    }
}
