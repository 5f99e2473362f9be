#if TIFF
import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
import WebImageTIFF
@testable import WebImageTestSupport

/// The TIFF coder against image-tiff's suite, libtiff's regression images, Pillow's,
/// sharp's, image-rs's, gdk-pixbuf's and SDL_image's TIFF files.
@Suite(Corpus.required)
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
        "image-tiff-tests": 115, "libtiff-test-images": 13, "pillow-formats": 55, "sharp-tiff": 6,
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

    @Test func sdlSampleMatchesItsPNG() throws {
        let image = try coder.decode(Corpus.data("sdl-image-samples/sample.tif"), options: ImageDecodeOptions())
        let reference = try ReferencePixels.load("sdl-image-samples/sample.png")
        #expect(ReferencePixels.maximumDifference(image.bitmap, reference) == 0)
    }

    /// image-rs's references, except for its two 32-bit float files, which libtiff's RGBA
    /// interface does not convert. The `hpredict` files store associated (premultiplied)
    /// alpha, which image-rs's references keep as stored and this coder undoes, so they
    /// are compared premultiplied.
    @Test func imageRSReferencesMatch() throws {
        for entry in Self.entries(in: "image-rs-formats") where entry.expected == "ok" && !entry.path.contains("rgb32f") {
            let reference = "image-rs-formats/" + entry.path.replacingOccurrences(of: "images/", with: "reference/", options: .anchored) + ".png"
            guard FileManager.default.fileExists(atPath: Corpus.url(reference).path) else { continue }
            let image = try coder.decode(Corpus.data("image-rs-formats/\(entry.path)"), options: ImageDecodeOptions())
            let bitmap = entry.path.contains("hpredict") ? Self.premultiplied(image.bitmap) : image.bitmap
            let difference = try ReferencePixels.maximumDifference(bitmap, ReferencePixels.load(reference))
            #expect(difference != nil && difference! <= 1, "\(entry.path): \(difference.map(String.init) ?? "size")")
        }
    }

    static func premultiplied(_ bitmap: Bitmap) -> Bitmap {
        var pixels = bitmap.convertedToRGBA8().pixels
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
