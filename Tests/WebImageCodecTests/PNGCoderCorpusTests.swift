import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
@testable import WebImagePNG
import WebImageTestSupport

/// The PNG coder against the shared corpora: PngSuite with reference pixel CRCs, the
/// image-png collections, SDWebImage's fixtures and decompression bombs.
@Suite(Corpus.required, Corpus.skippedUnderThreadSanitizer)
struct PNGCoderCorpusTests {
    let coder = PNGCoder()

    /// PngSuite's valid files, by name.
    static let validSuiteFiles: [String] = Corpus.files(in: "pngsuite", extensions: ["png"])
        .map(\.lastPathComponent)
        .filter { !$0.hasPrefix("x") }

    /// PngSuite's corrupt files (names starting with `x`).
    static let corruptSuiteFiles: [String] = Corpus.files(in: "pngsuite", extensions: ["png"])
        .map(\.lastPathComponent)
        .filter { $0.hasPrefix("x") }

    @Test func suiteHasTheExpectedFiles() {
        #expect(Self.validSuiteFiles.count >= 161)
        #expect(Self.corruptSuiteFiles.count == 14)
    }

    @Test(arguments: validSuiteFiles)
    func validSuiteFileMatchesReferencePixels(_ name: String) throws {
        let data = try Corpus.data("pngsuite/\(name)")
        let image = try coder.decode(data, options: ImageDecodeOptions())
        let expected = try #require(Self.referenceChecksums["pngsuite/\(name)"], "no reference for \(name)")
        let header = try FileFacts(data)
        #expect(image.bitDepth == (header.bitDepth == 16 ? 16 : 8))
        #expect(image.pixelSize == PixelSize(width: header.width, height: header.height))
        let bytes = Self.referenceLayout(of: image.bitmap, colorType: header.colorType, hasTransparency: header.hasTransparency)
        #expect(bytes.withUnsafeBytes(CRC32.checksum) == expected, "\(name): pixels differ from the reference decoder")
    }

    @Test(arguments: corruptSuiteFiles)
    func corruptSuiteFileIsRejected(_ name: String) throws {
        let data = try Corpus.data("pngsuite/\(name)")
        #expect(throws: ImageError.self) { try coder.decode(data, options: ImageDecodeOptions()) }
    }

    @Test func interlacedFilesMatchTheirNonInterlacedTwins() throws {
        let interlaced = Self.validSuiteFiles.filter { $0.hasPrefix("basi") }
        #expect(interlaced.count == 15)
        for name in interlaced {
            let twin = "basn" + name.dropFirst(4)
            let a = try coder.decode(Corpus.data("pngsuite/\(name)"), options: ImageDecodeOptions())
            let b = try coder.decode(Corpus.data("pngsuite/\(twin)"), options: ImageDecodeOptions())
            #expect(a.bitmap == b.bitmap, "\(name) differs from \(twin)")
        }
    }

    @Test(arguments: ["pngsuite-extra/basi3p01_2.png", "pngsuite-extra/basi3p02_2.png"])
    func pngSuiteExtraMatchesReference(_ path: String) throws {
        let data = try Corpus.data("image-png-misc/\(path)")
        let image = try coder.decode(data, options: ImageDecodeOptions())
        let header = try FileFacts(data)
        let bytes = Self.referenceLayout(of: image.bitmap, colorType: header.colorType, hasTransparency: header.hasTransparency)
        #expect(bytes.withUnsafeBytes(CRC32.checksum) == Self.referenceChecksums[path])
    }

    @Test func everyMiscFileDecodes() throws {
        let folders = ["iccp", "pngsuite-extra", "sbit", "text_chunk_examples"]
        var count = 0
        for folder in folders {
            for file in Corpus.files(in: "image-png-misc/\(folder)", extensions: ["png"]) {
                let image = try coder.decode(Data(contentsOf: file), options: ImageDecodeOptions())
                #expect(image.pixelWidth > 0 && image.frames.count == 1, "\(file.lastPathComponent)")
                count += 1
            }
        }
        #expect(count == 9)
    }

    @Test func animatedMiscFileDecodesItsFrames() throws {
        let data = try Corpus.data("image-png-misc/animated/basic_f20.png")
        let info = try coder.animationInfo(of: data)
        let image = try coder.decode(data, options: ImageDecodeOptions())
        #expect(info.frameCount > 1)
        #expect(image.frames.count == info.frameCount)
        #expect(image.frames.map(\.duration) == info.frameDurations)
        #expect(image.pixelSize == info.canvasSize)
        let distinct = Set(image.frames.map(\.bitmap.pixels))
        #expect(distinct.count > 1)
    }

    @Test func benchFilesDecodeAtTheirManifestSizes() throws {
        let manifest = try String(contentsOf: Corpus.url("_manifests/image-png-benches.csv"), encoding: .utf8)
        var checked = 0
        for line in manifest.split(whereSeparator: \.isNewline).dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count > 5, let width = Int(fields[4]), let height = Int(fields[5]) else { continue }
            let image = try coder.decode(Corpus.data("image-png-benches/\(fields[0])"), options: ImageDecodeOptions())
            #expect(image.pixelSize == PixelSize(width: width, height: height), "\(fields[0])")
            checked += 1
        }
        #expect(checked == 14)
    }

    @Test func indexedPNGHasPaletteAlpha() throws {
        let image = try coder.decode(Corpus.data("sdwebimage/IndexedPNG.png"), options: ImageDecodeOptions())
        let pixel = image.bitmap.rgba8(x: 100, y: 1)
        let expected: [Double] = [0.60, 0.91, 0.91, 0.20].map { $0 * 255 }
        let actual = [pixel.red, pixel.green, pixel.blue, pixel.alpha].map(Double.init)
        for (value, target) in zip(actual, expected) {
            #expect(abs(value - target) <= 2, "pixel \(pixel)")
        }
        #expect(image.hasAlpha)
        #expect(image.pixelSize == PixelSize(width: 687, height: 123))
    }

    @Test func sixteenBitPNGStaysSixteenBit() throws {
        let image = try coder.decode(Corpus.data("sdwebimage/RGBA16PNG.png"), options: ImageDecodeOptions())
        #expect(image.bitDepth == 16)
        #expect(image.bitmap.pixelFormat == .rgba16)
        #expect(image.pixelSize == PixelSize(width: 126, height: 135))
    }

    @Test func sdWebImageAnimatedPNG() throws {
        let data = try Corpus.data("sdwebimage/TestImageAnimated.apng")
        let image = try coder.decode(data, options: ImageDecodeOptions())
        #expect(image.frames.count == 101)
        #expect(image.loopCount == 0)
        #expect(image.frames.allSatisfy { abs($0.duration - 0.03) < 1e-9 })
        #expect(image.pixelSize == PixelSize(width: 320, height: 240))
        let info = try coder.animationInfo(of: data)
        #expect(info.frameCount == 101 && info.loopCount == 0)
        let first = try coder.decode(data, options: ImageDecodeOptions(firstFrameOnly: true))
        #expect(first.frames.count == 1)
        #expect(first.bitmap == image.bitmap)
    }

    @Test func sdWebImageLargePNGIsAnAnimation() throws {
        let image = try coder.decode(Corpus.data("sdwebimage/TestImageLarge.png"), options: ImageDecodeOptions())
        #expect(image.frames.count == 4)
        #expect(image.pixelSize == PixelSize(width: 1275, height: 720))
    }

    @Test func sdWebImageTestImage() throws {
        let image = try coder.decode(Corpus.data("sdwebimage/TestImage.png"), options: ImageDecodeOptions())
        #expect(image.pixelSize == PixelSize(width: 300, height: 300))
        #expect(image.hasAlpha)
        #expect(image.bitmap.containsTransparency)
        #expect(image.format == .png)
    }

    @Test(arguments: ["big-png-spark/spark.png", "65536-uint32-limit.png"])
    func hugeDeclaredSizesAreRefused(_ path: String) throws {
        let data = try Corpus.data("decompression-bombs/\(path)")
        let error = #expect(throws: ImageError.self) { try coder.decode(data, options: ImageDecodeOptions()) }
        #expect(error?.code == .imageTooLarge)
    }

    @Test func textChunkBombIsStoppedByTheChunkLimit() throws {
        let data = try Corpus.data("decompression-bombs/png_decompression_dos.png")
        let error = #expect(throws: ImageError.self) { try coder.decode(data, options: ImageDecodeOptions()) }
        #expect(error?.code == .imageTooLarge)
        var generous = ImageDecodeOptions()
        generous.maxChunkBytes = 64 << 20
        #expect(try coder.decode(data, options: generous).pixelWidth > 0)
    }

    // MARK: - Reference layout

    /// The reference decoder's output layout (image-png with EXPAND and STRIP_16): grey,
    /// grey+alpha, RGB or RGBA as the colour type and tRNS say, 8 bits per sample (the
    /// high byte of 16-bit samples).
    static func referenceLayout(of bitmap: Bitmap, colorType: UInt8, hasTransparency: Bool) -> [UInt8] {
        let channels: [Int]
        switch colorType {
        case 0: channels = hasTransparency ? [0, 3] : [0]
        case 4: channels = [0, 3]
        case 2, 3: channels = hasTransparency ? [0, 1, 2, 3] : [0, 1, 2]
        default: channels = [0, 1, 2, 3]
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(bitmap.width * bitmap.height * channels.count)
        bitmap.pixels.withUnsafeBytes { raw in
            let pixelCount = bitmap.width * bitmap.height
            for pixel in 0..<pixelCount {
                for channel in channels {
                    if bitmap.pixelFormat == .rgba8 {
                        bytes.append(raw[pixel * 4 + channel])
                    } else {
                        let value = raw.loadUnaligned(fromByteOffset: (pixel * 4 + channel) * 2, as: UInt16.self)
                        bytes.append(UInt8(value >> 8))
                    }
                }
            }
        }
        return bytes
    }

    /// `path: crc` lines of the reference file, keyed by the path after `tests/`.
    static let referenceChecksums: [String: UInt32] = {
        let url = Corpus.url("pngsuite/_expected_crc32_image-png_results.txt")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        var table: [String: UInt32] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, let crc = UInt32(parts[1].trimmingCharacters(in: .whitespaces)) else { continue }
            table[String(parts[0].dropFirst("tests/".count))] = crc
        }
        return table
    }()

    /// What a PNG's IHDR and chunk list say, read by the test itself.
    struct FileFacts {
        let width: Int
        let height: Int
        let bitDepth: Int
        let colorType: UInt8
        let hasTransparency: Bool

        init(_ data: Data) throws {
            let bytes = [UInt8](data)
            guard bytes.count > 33 else { throw ImageError(.badImageData, "too short") }
            func word(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
            width = word(16)
            height = word(20)
            bitDepth = Int(bytes[24])
            colorType = bytes[25]
            var offset = 8
            var transparency = false
            while offset + 8 <= bytes.count {
                let length = word(offset)
                let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
                if type == "tRNS" { transparency = true }
                if type == "IDAT" { break }
                offset += length + 12
            }
            hasTransparency = transparency
        }
    }
}
