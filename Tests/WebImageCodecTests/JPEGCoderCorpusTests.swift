import CPNG
import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
@testable import WebImageJPEG
import WebImageTestSupport

/// The JPEG coder on the shared corpora: every JPEG decodes or fails with an
/// ``ImageError``, sizes match the manifests, pixels match reference decodes, and
/// orientation, thumbnails, bombs, truncation and progressive scans behave.
@Suite(Corpus.required, Corpus.skippedUnderThreadSanitizer) struct JPEGCoderCorpusTests {
    let coder = JPEGCoder()

    // MARK: - Helpers

    /// The stored sizes of the SDWebImage fixtures, from the folder's README (it has no manifest).
    static let sdwebimageSizes: [String: PixelSize] = [
        "MonochromeTestImage.jpg": PixelSize(width: 165, height: 121),
        "TestHDR.jpeg": PixelSize(width: 1662, height: 2493),
        "TestICCProfile.jpg": PixelSize(width: 400, height: 300),
        "TestImage.jpg": PixelSize(width: 80, height: 60),
        "TestImageLarge.jpg": PixelSize(width: 5250, height: 3450),
        "TestJFIF.jpg": PixelSize(width: 4032, height: 3024),
    ]

    /// Stored width and height per file, from `_manifests/<folder>.csv` (files the
    /// reference decoder opened), keyed by the path inside the folder.
    static func manifest(_ folder: String) throws -> [String: PixelSize] {
        let url = Corpus.url("_manifests/\(folder).csv")
        guard FileManager.default.fileExists(atPath: url.path) else {
            return folder == "sdwebimage" ? sdwebimageSizes : [:]
        }
        let text = try String(contentsOf: url, encoding: .utf8)
        var sizes: [String: PixelSize] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: ",", maxSplits: 9, omittingEmptySubsequences: false)
            guard fields.count > 8, fields[8] == "ok", let width = Int(fields[4]), let height = Int(fields[5]) else { continue }
            sizes[String(fields[0])] = PixelSize(width: width, height: height)
        }
        return sizes
    }

    /// A corpus PNG decoded by libspng to 8-bit RGBA: the reference pictures.
    static func referencePNG(_ path: String) throws -> Bitmap {
        let data = try Corpus.data(path)
        let context = try #require(spng_ctx_new(0))
        defer { spng_ctx_free(context) }
        let format = Int32(SPNG_FMT_RGBA8.rawValue)
        return try data.withUnsafeBytes { bytes in
            try #require(spng_set_png_buffer(context, bytes.baseAddress, bytes.count) == 0)
            var header = spng_ihdr()
            try #require(spng_get_ihdr(context, &header) == 0)
            var length = 0
            try #require(spng_decoded_image_size(context, format, &length) == 0)
            var pixels = [UInt8](repeating: 0, count: length)
            try #require(spng_decode_image(context, &pixels, length, format, Int32(SPNG_DECODE_TRNS.rawValue)) == 0)
            return Bitmap(width: Int(header.width), height: Int(header.height), pixels: pixels)
        }
    }

    func decode(_ path: String, _ options: ImageDecodeOptions = ImageDecodeOptions()) throws -> Image {
        try coder.decode(try Corpus.data(path), options: options)
    }

    /// The rows `range` of `bitmap`.
    static func rows(_ range: Range<Int>, of bitmap: Bitmap) -> Bitmap {
        let start = range.lowerBound * bitmap.bytesPerRow
        let pixels = Array(bitmap.pixels[start..<(start + range.count * bitmap.bytesPerRow)])
        return Bitmap(width: bitmap.width, height: range.count, pixels: pixels)
    }

    static let meanDifference = JPEGCoderTests.meanDifference

    /// The mean signed difference of each colour channel: near zero unless a colour shifted.
    static func meanShift(_ first: Bitmap, _ second: Bitmap) -> [Double] {
        var sums = [0, 0, 0]
        for index in stride(from: 0, to: first.pixels.count, by: 4) {
            for channel in 0..<3 {
                sums[channel] += Int(first.pixels[index + channel]) - Int(second.pixels[index + channel])
            }
        }
        return sums.map { Double($0) / Double(first.width * first.height) }
    }

    /// The mean absolute difference of luma (what survives chroma upsampling choices).
    static func lumaDifference(_ first: Bitmap, _ second: Bitmap) -> Double {
        func luma(_ pixels: [UInt8], _ index: Int) -> Int {
            (77 * Int(pixels[index]) + 150 * Int(pixels[index + 1]) + 29 * Int(pixels[index + 2])) >> 8
        }
        var total = 0
        for index in stride(from: 0, to: first.pixels.count, by: 4) {
            total += abs(luma(first.pixels, index) - luma(second.pixels, index))
        }
        return Double(total) / Double(first.width * first.height)
    }

    // MARK: - Every file

    @Test(
        arguments: [
            ("libjpeg-turbo-testimages", nil),
            ("sdwebimage", ["jpg", "jpeg"]),
            ("wuffs-test-data", ["jpg", "jpeg"]),
            ("exif-orientation-examples", ["jpg", "jpeg"]),
        ] as [(String, Set<String>?)])
    func everyFileDecodesOrFailsWithAnImageError(folder: String, extensions: Set<String>?) throws {
        let sizes = try Self.manifest(folder)
        let paths = Corpus.relativePaths(under: folder, extensions: extensions)
        #expect(!paths.isEmpty)
        for path in paths {
            let data = try Corpus.data("\(folder)/\(path)")
            let isJPEG = ImageFormat(sniffing: data) == .jpeg
            do {
                let image = try coder.decode(data, options: ImageDecodeOptions())
                #expect(isJPEG, "\(path) is not a JPEG but decoded")
                if let stored = sizes[path] {
                    let expected = image.orientation.swapsWidthAndHeight ? stored.transposed : stored
                    #expect(image.pixelSize == expected, "\(path)")
                }
            } catch {
                // A file the reference decoder opened must decode here too.
                #expect(!isJPEG || sizes[path] == nil, "\(path): \(error)")
            }
        }
    }

    // MARK: - Known pictures

    @Test func knownFixtures() throws {
        #expect(try decode("sdwebimage/TestImage.jpg").pixelSize == PixelSize(width: 80, height: 60))

        let monochrome = try decode("sdwebimage/MonochromeTestImage.jpg").bitmap
        #expect(monochrome.size == PixelSize(width: 165, height: 121))
        var distinctLevels = Set<UInt8>()
        for index in stride(from: 0, to: monochrome.pixels.count, by: 4) {
            let (red, green, blue) = (monochrome.pixels[index], monochrome.pixels[index + 1], monochrome.pixels[index + 2])
            #expect(red == green && green == blue)
            distinctLevels.insert(red)
        }
        #expect(distinctLevels.count > 16)

        let twelveBit = #expect(throws: ImageError.self) { try decode("libjpeg-turbo-testimages/monkey12.jpg") }
        #expect(twelveBit?.code == .unsupportedFormat)
    }

    @Test func arithmeticAndProgressiveCodingMatchTheBaselinePicture() throws {
        let baseline = try decode("libjpeg-turbo-testimages/testorig.jpg").bitmap
        #expect(baseline.size == PixelSize(width: 227, height: 149))
        for name in ["testimgari.jpg", "testimgint.jpg"] {
            let other = try decode("libjpeg-turbo-testimages/\(name)").bitmap
            #expect(Self.meanDifference(other, baseline) < 1.5, "\(name)")
        }
    }

    /// The PNGs beside wuffs' JPEGs were made by another decoder (ImageMagick), whose
    /// chroma upsampling differs at colour edges: luma and the mean colour must agree
    /// closely, single colour values only roughly.
    @Test(arguments: ["bricks-color", "bricks-gray", "harvesters", "hat", "hibiscus.regular", "pjw-thumbnail"])
    func matchesTheReferenceDecodes(name: String) throws {
        let reference = try Self.referencePNG("wuffs-test-data/\(name).png")
        let decoded = try decode("wuffs-test-data/\(name).jpeg").bitmap
        #expect(decoded.size == reference.size)
        #expect(Self.lumaDifference(decoded, reference) < 3)
        #expect(Self.meanShift(decoded, reference).allSatisfy { abs($0) < 1 })
        #expect(Self.meanDifference(decoded, reference) < 8)
    }

    // MARK: - Orientation

    @Test(arguments: ["Landscape", "Portrait"])
    func orientationExamplesShowUpright(kind: String) throws {
        let expectedSize = kind == "Landscape" ? PixelSize(width: 1800, height: 1200) : PixelSize(width: 1200, height: 1800)
        let probeSize = PixelSize(width: expectedSize.width / 20, height: expectedSize.height / 20)
        let upright = try decode("exif-orientation-examples/\(kind)_1.jpg").bitmap
        let reference = try upright.resized(to: probeSize)
        let upsideDown = try upright.oriented(.down).resized(to: probeSize)
        let wrongDifference = Self.meanDifference(upsideDown, reference)
        #expect(wrongDifference > 20)
        for number in 0...8 {
            let image = try decode("exif-orientation-examples/\(kind)_\(number).jpg")
            #expect(image.orientation == ImageOrientation(exifValue: number))
            #expect(image.pixelSize == expectedSize, "\(kind)_\(number)")
            #expect(try Self.meanDifference(image.bitmap.resized(to: probeSize), reference) < 3, "\(kind)_\(number)")
        }
    }

    @Test func readsOrientationFromXMPWhenEXIFHasNone() throws {
        let image = try decode("sdwebimage/TestJFIF.jpg", ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 400, height: 400)))
        #expect(image.orientation == .down)
        #expect(image.pixelSize == PixelSize(width: 400, height: 300))
    }

    // MARK: - Thumbnails and limits

    @Test func thumbnailsOfLargePhotosHaveTheExactTargetSize() throws {
        let box = PixelSize(width: 320, height: 320)
        let options = ImageDecodeOptions(thumbnailPixelSize: box)
        for path in Corpus.relativePaths(under: "large-images", extensions: ["jpg"]) {
            let data = try Corpus.data("large-images/\(path)")
            let source = try #require(data.withUnsafeBytes { JPEGMetadata(reading: $0).frameSize })
            let image = try coder.decode(data, options: options)
            #expect(image.pixelSize == options.targetSize(forSource: source), "\(path)")
            #expect(max(image.pixelWidth, image.pixelHeight) == 320)
            let sourceRatio = Double(source.width) / Double(source.height)
            #expect(abs(Double(image.pixelWidth) / Double(image.pixelHeight) - sourceRatio) < 0.02, "\(path)")
        }
    }

    @Test func thumbnailsMatchTheResampledFullPicture() throws {
        let full = try decode("wuffs-test-data/harvesters.jpeg").bitmap
        let thumbnail = try decode("wuffs-test-data/harvesters.jpeg", ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 200, height: 200)))
        #expect(thumbnail.pixelSize == PixelSize(width: 200, height: 147))
        // DCT scaling and area averaging keep different fine detail; the picture agrees.
        let resampled = try full.resized(to: thumbnail.pixelSize)
        #expect(Self.meanDifference(thumbnail.bitmap, resampled) < 6)
        #expect(Self.meanShift(thumbnail.bitmap, resampled).allSatisfy { abs($0) < 1 })
        let coarse = PixelSize(width: 50, height: 37)
        #expect(try Self.meanDifference(thumbnail.bitmap.resized(to: coarse), full.resized(to: coarse)) < 2.5)
    }

    @Test func scalesTheLargeSDWebImageFixture() throws {
        let small = try decode("sdwebimage/TestImageLarge.jpg", ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 400, height: 300)))
        #expect(small.pixelSize == PixelSize(width: 400, height: 263))
        let large = try decode("sdwebimage/TestImageLarge.jpg", ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 4000, height: 4000)))
        #expect(large.pixelSize == PixelSize(width: 4000, height: 2629))
        let limit = 4 << 20
        let budget = try decode("sdwebimage/TestImageLarge.jpg", ImageDecodeOptions(scaleDownLimitBytes: limit))
        #expect(budget.memoryCost <= limit)
        #expect(budget.memoryCost > limit * 9 / 10)
        #expect(budget.pixelSize == ImageDecodeOptions(scaleDownLimitBytes: limit).targetSize(forSource: PixelSize(width: 5250, height: 3450)))
    }

    @Test func refusesDecompressionBombsBeforeAllocating() throws {
        let declared = #expect(throws: ImageError.self) { try decode("decompression-bombs/jpeg-decoder_max_size.jpg") }
        #expect(declared?.code == .imageTooLarge)
        let giant = #expect(throws: ImageError.self) { try decode("decompression-bombs/giant-image.jpg") }
        #expect(giant?.code == .imageTooLarge)
        let thumbnail = try decode("decompression-bombs/giant-image.jpg", ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 500, height: 500)))
        #expect(thumbnail.pixelSize == PixelSize(width: 500, height: 350))
    }

    // MARK: - Truncation and progressive decoding

    @Test(arguments: ["default", "progressive"])
    func truncatedFilesFailWholeAndMatchDjpegIncrementally(kind: String) throws {
        let data = try Corpus.data("wuffs-test-data/peacock.\(kind).truncated.jpeg")
        let error = #expect(throws: ImageError.self) { try coder.decode(data, options: ImageDecodeOptions()) }
        #expect(error?.code == .badImageData)
        #expect(error?.message.contains("truncated") == true)
        let partial = try #require(try coder.decodeIncrementally(data, isComplete: false, options: ImageDecodeOptions()))
        let reference = try Self.referencePNG("wuffs-test-data/peacock.\(kind).truncated.decoded-by-djpeg.png")
        #expect(partial.pixelSize == reference.size)
        #expect(Self.meanDifference(partial.bitmap, reference) < 1.5)
    }

    @Test func progressiveScansSharpenTowardsTheFinalPicture() throws {
        let final = try decode("wuffs-test-data/peacock.progressive.jpeg").bitmap
        var differences: [Double] = []
        for scan in 0...9 {
            let data = try Corpus.data("wuffs-test-data/peacock.progressive.scan00\(scan).jpeg")
            let partial = try #require(try coder.decodeIncrementally(data, isComplete: false, options: ImageDecodeOptions()))
            #expect(partial.pixelSize == PixelSize(width: 100, height: 75))
            differences.append(Self.meanDifference(partial.bitmap, final))
        }
        for scan in 1...9 {
            #expect(differences[scan] <= differences[scan - 1] + 0.25, "scan \(scan): \(differences)")
        }
        #expect(differences[0] > 5)
        #expect(differences[0] > differences[5] * 2)
        #expect(differences[9] == 0)
    }

    @Test func baselinePrefixShowsItsTopRows() throws {
        let data = try Corpus.data("wuffs-test-data/harvesters.jpeg")
        let full = try coder.decode(data, options: ImageDecodeOptions()).bitmap
        let prefix = data.prefix(data.count * 2 / 5)
        #expect(throws: ImageError.self) { try coder.decode(prefix, options: ImageDecodeOptions()) }
        let partial = try #require(try coder.decodeIncrementally(prefix, isComplete: false, options: ImageDecodeOptions())).bitmap
        #expect(partial.size == full.size)
        let top = 0..<(full.height / 5)
        #expect(Self.meanDifference(Self.rows(top, of: partial), Self.rows(top, of: full)) < 0.5)
        let bottom = (full.height - 50)..<full.height
        #expect(Self.meanDifference(Self.rows(bottom, of: partial), Self.rows(bottom, of: full)) > 10)
    }
}
