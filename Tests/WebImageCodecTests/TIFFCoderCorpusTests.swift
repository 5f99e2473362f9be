#if TIFF
import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
import WebImageTIFF
import WebImageTestSupport

/// The TIFF coder against image-tiff's suite, libtiff's regression images, Pillow's,
/// sharp's, image-rs's, gdk-pixbuf's and SDL_image's TIFF files.
@Suite(Corpus.required, Corpus.skippedUnderThreadSanitizer)
struct TIFFCoderCorpusTests {
    let coder = TIFFCoder()

    static let folders = [
        "image-tiff-tests", "libtiff-test-images", "pillow-formats", "sharp-tiff", "image-rs-formats",
        "gdk-pixbuf-tests", "sdl-image-samples",
    ]

    /// What decoding every file of a folder that the manifest calls valid gave.
    struct FolderResult {
        var decoded: [String] = []
        var unsupported: [String] = []
    }

    /// The TIFF files of `folder` with their verdicts: named `.tif`/`.tiff`, or sniffed as
    /// TIFF (image-tiff's fuzz files have no extension).
    static func entries(in folder: String) -> [CorpusManifest.Entry] {
        guard let manifest = try? CorpusManifest(folder: folder) else { return [] }
        return manifest.entries.filter { entry in
            let ext = (entry.path as NSString).pathExtension.lowercased()
            if ext == "tif" || ext == "tiff" { return true }
            guard ext.isEmpty || entry.path.contains("fuzz"), let data = try? Corpus.data("\(folder)/\(entry.path)") else { return false }
            return ImageFormat(sniffing: data) == .tiff
        }
    }

    /// Every valid file decodes to the size Pillow read (transposed for orientations 5–8)
    /// and, for multi-page files, Pillow's page count — or, for sample formats libtiff's
    /// RGBA interface does not convert (floating point, 32- and 64-bit integers), ends in
    /// ``ImageError/Code/unsupportedFormat``.
    @Test(arguments: folders)
    func validFilesDecode(_ folder: String) throws {
        var result = FolderResult()
        for entry in Self.entries(in: folder) where entry.expected == "ok" {
            let data = try Corpus.data("\(folder)/\(entry.path)")
            do {
                let image = try coder.decode(data, options: ImageDecodeOptions())
                result.decoded.append(entry.path)
                #expect(image.format == .tiff)
                if let size = entry.size {
                    #expect(image.pixelSize == PixelSize(width: size.width, height: size.height), "\(folder)/\(entry.path)")
                }
                if let frames = entry.frames, frames > 1, !entry.path.contains("subifd") {
                    #expect(image.frames.count == frames, "\(folder)/\(entry.path)")
                }
            } catch {
                let known = Self.knownFailures.contains("\(folder)/\(entry.path)")
                #expect(error.code == .unsupportedFormat || known, "\(folder)/\(entry.path): \(error)")
                result.unsupported.append(entry.path)
            }
        }
        print("\(folder): \(result.decoded.count) decoded, \(result.unsupported.count) unsupported: \(result.unsupported)")
        #expect(result.decoded.count >= Self.minimumDecoded[folder, default: 1], "\(folder)")
    }

    /// Valid files that Debian 12's libtiff 4.5.0 fails on with a read error: ThunderScan
    /// data that runs short, and a G3 fax without end-of-line codes (fixed in later libtiff).
    static let knownFailures: Set<String> = [
        "image-tiff-tests/libtiffpic/text.tif", "libtiff-test-images/testfax3_bug54_1dnoEOL.tif",
    ]

    /// Files Pillow cannot identify that are valid TIFF, read by libvips and by us:
    /// 32-bit unsigned RGB samples, for which Pillow has no pixel mode.
    static let validDespitePillow: Set<String> = ["hopper_unknown_pixel_mode.tif"]

    /// The decoded counts measured when this suite was written, so a regression shows.
    static let minimumDecoded: [String: Int] = [
        "image-tiff-tests": 138, "libtiff-test-images": 13, "pillow-formats": 55, "sharp-tiff": 6,
        "image-rs-formats": 10, "gdk-pixbuf-tests": 2, "sdl-image-samples": 1,
    ]

    @Test(arguments: folders)
    func invalidAndFuzzFilesEndCleanly(_ folder: String) throws {
        for entry in Self.entries(in: folder) where entry.expected != "ok" {
            let data = try Corpus.data("\(folder)/\(entry.path)")
            // image-rs keeps "TODO hpredict_cmyk.tiff" in bad/ because it cannot decode it
            // yet; it is a valid CMYK file with a predictor, which libtiff decodes. Pillow
            // calls a few valid files bad because it has no mode for their samples.
            if entry.expected == "bad" && !entry.path.contains("TODO") && !Self.validDespitePillow.contains(entry.path) {
                #expect(throws: ImageError.self, "\(folder)/\(entry.path)") { try coder.decode(data, options: ImageDecodeOptions()) }
            } else {
                _ = try? coder.decode(data, options: ImageDecodeOptions())
            }
        }
    }

    @Test func loopingDirectoriesAreCountedOnce() throws {
        let pages: [String: Int] = [
            "libtiff-test-images/test_ifd_loop_to_self.tif": 1,
            "libtiff-test-images/test_ifd_loop_subifd.tif": 5,
            "pillow-formats/multipage_single_frame_loop.tiff": 1,
            "pillow-formats/multipage_multiple_frame_loop.tiff": 2,
            "pillow-formats/multipage.tiff": 3,
            "sharp-tiff/G31D_MULTI.TIF": 2,
        ]
        for (path, count) in pages {
            let image = try coder.decode(Corpus.data(path), options: ImageDecodeOptions())
            #expect(image.frames.count == count, "\(path)")
            let first = try coder.decode(Corpus.data(path), options: ImageDecodeOptions(firstFrameOnly: true))
            #expect(first.frames.count == 1 && first.bitmap == image.bitmap, "\(path)")
        }
    }

    @Test func orientationsShowOnePicture() throws {
        let upright = try coder.decode(Corpus.data("pillow-formats/g4_orientation_1.tif"), options: ImageDecodeOptions())
        for orientation in 2...8 {
            let image = try coder.decode(Corpus.data("pillow-formats/g4_orientation_\(orientation).tif"), options: ImageDecodeOptions())
            // Stored 590×88 (88×590 for 5–8) and compressed separately, so a few edge
            // pixels may differ; a wrong orientation would differ in most of them.
            let fraction = ReferencePixels.differingFraction(image.bitmap, upright.bitmap)
            #expect(fraction != nil && fraction! < 0.01, "orientation \(orientation): \(fraction.map { String($0) } ?? "size")")
        }
    }

    @Test func cmykEdgeCasesGiveTheirGrey() throws {
        let cases = ["cmyk_u8_edge_case.tif": UInt8(190), "cmyk_u8_trunc_case.tif": 126]
        for (name, grey) in cases {
            let path = try #require(Self.entries(in: "image-rs-formats").first { $0.path.hasSuffix(name) }?.path)
            let image = try coder.decode(Corpus.data("image-rs-formats/\(path)"), options: ImageDecodeOptions())
            let pixel = image.bitmap.rgba8(x: 0, y: 0)
            #expect(pixel == RGBA8(red: grey, green: grey, blue: grey), "\(name): \(pixel)")
        }
    }

    /// Pages that store each sample in a plane of its own, which libtiff's RGBA interface
    /// refuses (32-bit samples; CMYK in planes), decode to the pixels of their contiguous
    /// twins and to libvips' samples: 32-bit RGB cut to its top bits, 16-bit CMYK through
    /// the naive ink formula (the page has no profile). Expected colours were computed
    /// from `vips rawsave` of each file.
    @Test func planarPagesMatchTheirContiguousTwinsAndLibvips() throws {
        let cases: [(planar: String, contiguous: String, samples: [(x: Int, y: Int, colour: RGBA8)], mean: [Double])] = [
            (
                "flower-rgb-planar-32.tif", "flower-rgb-contig-32.tif",
                [(0, 0, RGBA8(red: 88, green: 88, blue: 71)), (36, 20, RGBA8(red: 75, green: 73, blue: 29)), (72, 42, RGBA8(red: 68, green: 70, blue: 60))],
                [96.54, 96.53, 69.53]
            ),
            (
                "flower-separated-planar-16.tif", "flower-separated-contig-16.tif",
                [(0, 0, RGBA8(red: 31, green: 31, blue: 25)), (36, 20, RGBA8(red: 22, green: 21, blue: 8)), (72, 42, RGBA8(red: 19, green: 19, blue: 16))],
                [49.22, 47.89, 35.97]
            ),
        ]
        for (planar, contiguous, samples, mean) in cases {
            let image = try coder.decode(Corpus.data("image-tiff-tests/libtiffpic/depth/\(planar)"), options: ImageDecodeOptions())
            let twin = try coder.decode(Corpus.data("image-tiff-tests/libtiffpic/depth/\(contiguous)"), options: ImageDecodeOptions())
            #expect(image.pixelSize == PixelSize(width: 73, height: 43), "\(planar)")
            #expect(image.bitmap == twin.bitmap, "\(planar)")
            try Self.expect(image.bitmap, samples: samples, mean: mean, planar)
        }
    }

    /// A CMYK page of 32-bit floats (libtiff's RGBA interface refuses 32-bit samples) reads
    /// its ink on the 0…1 scale its SMinSampleValue and SMaxSampleValue tags give, through
    /// the naive ink formula; the expected colours were computed from `vips rawsave`'s
    /// samples. (libvips itself renders this file near white: it reads float CMYK on
    /// Little CMS's 0…100 scale.)
    @Test func floatCMYKPageReadsItsInk() throws {
        let image = try coder.decode(Corpus.data("image-tiff-tests/images/cmyk-3c-32b-float.tiff"), options: ImageDecodeOptions())
        #expect(image.pixelSize == PixelSize(width: 20, height: 20))
        #expect(image.colorProfile == nil)
        let samples = [
            (x: 0, y: 0, colour: RGBA8(red: 162, green: 52, blue: 54)), (x: 10, y: 10, colour: RGBA8(red: 203, green: 224, blue: 204)),
            (x: 19, y: 19, colour: RGBA8(red: 131, green: 185, blue: 80)),
        ]
        try Self.expect(image.bitmap, samples: samples, mean: [177.08, 136.83, 64.39], "cmyk-3c-32b-float.tiff")
    }

    /// Expects `bitmap` to be opaque, to have each sampled colour within 1 per channel and
    /// the mean red, green and blue within 0.5.
    static func expect(_ bitmap: Bitmap, samples: [(x: Int, y: Int, colour: RGBA8)], mean: [Double], _ name: String) throws {
        for (x, y, colour) in samples {
            let pixel = bitmap.rgba8(x: x, y: y)
            let channels = [(pixel.red, colour.red), (pixel.green, colour.green), (pixel.blue, colour.blue), (pixel.alpha, colour.alpha)]
            #expect(channels.allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "\(name) at (\(x), \(y)): \(pixel), expected \(colour)")
        }
        let pixels = try bitmap.convertedToRGBA8().pixels
        let count = Double(bitmap.width * bitmap.height)
        for channel in 0..<3 {
            let average = Double(stride(from: channel, to: pixels.count, by: 4).reduce(0) { $0 + Int(pixels[$1]) }) / count
            #expect(abs(average - mean[channel]) <= 0.5, "\(name) channel \(channel): mean \(average), expected \(mean[channel])")
        }
    }

    @Test func sdlSampleMatchesItsPNG() throws {
        let image = try coder.decode(Corpus.data("sdl-image-samples/sample.tif"), options: ImageDecodeOptions())
        let reference = try ReferencePixels.load("sdl-image-samples/sample.png")
        #expect(ReferencePixels.maximumDifference(image.bitmap, reference) == 0)
    }

    /// image-rs's references, its two 32-bit float files included (read straight from their
    /// strips, clamped to 0…1). The `hpredict` files store associated (premultiplied)
    /// alpha, which image-rs's references keep as stored and this coder undoes, so they
    /// are compared premultiplied.
    @Test func imageRSReferencesMatch() throws {
        for entry in Self.entries(in: "image-rs-formats") where entry.expected == "ok" {
            let reference = "image-rs-formats/" + entry.path.replacingOccurrences(of: "images/", with: "reference/", options: .anchored) + ".png"
            guard FileManager.default.fileExists(atPath: Corpus.url(reference).path) else { continue }
            let image = try coder.decode(Corpus.data("image-rs-formats/\(entry.path)"), options: ImageDecodeOptions())
            let bitmap = try entry.path.contains("hpredict") ? Self.premultiplied(image.bitmap) : image.bitmap
            let difference = try ReferencePixels.maximumDifference(bitmap, ReferencePixels.load(reference))
            #expect(difference != nil && difference! <= 1, "\(entry.path): \(difference.map(String.init) ?? "size")")
        }
    }

    static func premultiplied(_ bitmap: Bitmap) throws -> Bitmap {
        var pixels = try bitmap.convertedToRGBA8().pixels
        for index in stride(from: 0, to: pixels.count, by: 4) {
            let alpha = Int(pixels[index + 3])
            for channel in 0..<3 { pixels[index + channel] = UInt8((Int(pixels[index + channel]) * alpha + 127) / 255) }
        }
        return Bitmap(width: bitmap.width, height: bitmap.height, pixels: pixels)
    }

    @Test func thumbnailIsResampledPerPage() throws {
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 100, height: 100))
        let image = try coder.decode(Corpus.data("sharp-tiff/G31D_MULTI.TIF"), options: options)
        #expect(image.frames.count == 2)
        #expect(image.pixelSize == PixelSize(width: 76, height: 100))
    }
}
#endif
