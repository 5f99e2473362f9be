import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
import WebImageBMP
import WebImageTestSupport

/// The BMP coder against BMP Suite (its verdicts and reference renderings), image-rs's
/// BMP files with their exact reference pixels, Pillow's, gdk-pixbuf's and SDL_image's.
@Suite(Corpus.required, Corpus.skippedUnderThreadSanitizer)
struct BMPCoderCorpusTests {
    let coder = BMPCoder()

    static let suite: [CorpusManifest.Entry] = (try? CorpusManifest(folder: "bmpsuite").entries(withExtensions: ["bmp"])) ?? []

    @Test func suiteListsItsFiles() {
        #expect(Self.suite.filter { $0.expected == "ok" }.count == 27)
        #expect(Self.suite.filter { $0.expected == "bad" }.count == 16)
    }

    /// BMP Suite's good files decode to their reference renderings where one exists.
    @Test(arguments: suite.filter { $0.expected == "ok" }.map(\.path))
    func goodFileDecodes(_ path: String) throws {
        let image = try coder.decode(Corpus.data("bmpsuite/\(path)"), options: ImageDecodeOptions())
        #expect(image.format == .bmp && image.frames.count == 1)
        let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        let reference = "bmpsuite/html/\(name).png"
        if FileManager.default.fileExists(atPath: Corpus.url(reference).path) {
            let difference = try ReferencePixels.maximumDifference(image.bitmap, ReferencePixels.load(reference))
            #expect(difference != nil && difference! <= 1, "\(path): differs from \(reference) by \(difference.map(String.init) ?? "size")")
        } else {
            let size = try #require(Self.suite.first { $0.path == path }?.size ?? (127, 64))
            #expect(image.pixelSize == PixelSize(width: size.width, height: size.height), "\(path)")
        }
    }

    @Test(arguments: suite.filter { $0.expected == "bad" }.map(\.path))
    func badFileIsRefused(_ path: String) throws {
        let data = try Corpus.data("bmpsuite/\(path)")
        #expect(throws: ImageError.self, "\(path)") { try coder.decode(data, options: ImageDecodeOptions()) }
    }

    /// The questionable files may decode or fail, but only with a typed error.
    @Test func questionableFilesEndCleanly() throws {
        for entry in Self.suite where entry.expected == "either" {
            let data = try Corpus.data("bmpsuite/\(entry.path)")
            do {
                let image = try coder.decode(data, options: ImageDecodeOptions())
                #expect(image.pixelWidth > 0)
            } catch {
                #expect(error.code == .badImageData || error.code == .imageTooLarge, "\(entry.path): \(error)")
            }
        }
    }

    /// BMP Suite's OS/2 bitmap array (`x/ba-bm.bmp`, questionable) holds one 8-bit
    /// bitmap behind its `BA` header: it decodes, as libvips does, to the pixels of the
    /// suite's `pal8` rendering, and sniffs as BMP. A copy whose bitmap header is damaged
    /// is not taken for a BMP.
    @Test func bitmapArrayDecodesItsFirstBitmap() throws {
        let data = try Corpus.data("bmpsuite/x/ba-bm.bmp")
        #expect(ImageFormat(sniffing: data) == .bmp)
        #expect(try coder.pixelSize(of: data) == PixelSize(width: 127, height: 64))
        let image = try coder.decode(data, options: ImageDecodeOptions())
        #expect(image.format == .bmp && image.pixelSize == PixelSize(width: 127, height: 64))
        let reference = try ReferencePixels.load("bmpsuite/html/pal8.png")
        #expect(ReferencePixels.maximumDifference(image.bitmap, reference) == 0)
        var damaged = data
        damaged[15] = 0x58  // "BX" instead of "BM"
        #expect(ImageFormat(sniffing: damaged) == .undefined)
        #expect(throws: ImageError.self) { try coder.decode(damaged, options: ImageDecodeOptions()) }
    }

    static let imageRS: [CorpusManifest.Entry] = (try? CorpusManifest(folder: "image-rs-formats").entries(withExtensions: ["bmp"])) ?? []

    /// image-rs's files with a reference decode to exactly its pixels. `pal8badindex.bmp`
    /// is left out: it is byte-identical to BMP Suite's `b/pal8badindex.bmp`, whose
    /// verdict (bad) this coder follows.
    @Test(arguments: imageRS.filter { $0.expected == "ok" && !$0.path.hasSuffix("pal8badindex.bmp") }.map(\.path))
    func imageRSFileMatchesReference(_ path: String) throws {
        let image = try coder.decode(Corpus.data("image-rs-formats/\(path)"), options: ImageDecodeOptions())
        let reference = "image-rs-formats/" + path.replacingOccurrences(of: "images/", with: "reference/", options: .anchored) + ".png"
        if FileManager.default.fileExists(atPath: Corpus.url(reference).path) {
            let difference = try ReferencePixels.maximumDifference(image.bitmap, ReferencePixels.load(reference))
            #expect(difference == 0, "\(path): differs from its reference by \(difference.map(String.init) ?? "size")")
        } else {
            let entry = try #require(Self.imageRS.first { $0.path == path })
            if let size = entry.size { #expect(image.pixelSize == PixelSize(width: size.width, height: size.height)) }
        }
    }

    @Test(arguments: imageRS.filter { $0.expected != "ok" }.map(\.path))
    func imageRSBadOrLenientFileEndsCleanly(_ path: String) throws {
        let entry = try #require(Self.imageRS.first { $0.path == path })
        let data = try Corpus.data("image-rs-formats/\(path)")
        if entry.expected == "bad" {
            #expect(throws: ImageError.self, "\(path)") { try coder.decode(data, options: ImageDecodeOptions()) }
        } else {
            _ = try? coder.decode(data, options: ImageDecodeOptions())
        }
    }

    @Test func pillowFilesFollowTheirVerdicts() throws {
        #expect(try coder.decode(Corpus.data("pillow-formats/hopper_rle8.bmp"), options: ImageDecodeOptions()).pixelSize == PixelSize(width: 128, height: 128))
        #expect(try coder.decode(Corpus.data("pillow-formats/hopper_rle8_grayscale.bmp"), options: ImageDecodeOptions()).pixelSize == PixelSize(width: 256, height: 10))
        let overflow = try coder.decode(Corpus.data("pillow-formats/hopper_rle8_row_overflow.bmp"), options: ImageDecodeOptions())
        let plain = try coder.decode(Corpus.data("pillow-formats/hopper_rle8.bmp"), options: ImageDecodeOptions())
        #expect(overflow.bitmap == plain.bitmap, "extra run-length data in a row is cut, not wrapped")
        let mmap = try coder.decode(Corpus.data("pillow-formats/mmap_error.bmp"), options: ImageDecodeOptions())
        let pal8 = try coder.decode(Corpus.data("bmpsuite/g/pal8.bmp"), options: ImageDecodeOptions())
        #expect(mmap.bitmap == pal8.bitmap)
        // Two 32-bit files with their bit fields in unusual orders; the first is rgb32.bmp
        // with the fields reordered.
        let rgb32 = try coder.decode(Corpus.data("bmpsuite/g/rgb32.bmp"), options: ImageDecodeOptions())
        let abgr = try coder.decode(Corpus.data("pillow-formats/rgb32bf-abgr.bmp"), options: ImageDecodeOptions())
        #expect(ReferencePixels.maximumDifference(abgr.bitmap, rgb32.bitmap, comparingAlpha: false) == 0)
        let rgba = try coder.decode(Corpus.data("pillow-formats/rgb32bf-rgba.bmp"), options: ImageDecodeOptions())
        #expect(rgba.pixelSize == rgb32.pixelSize)
        let wide = try Corpus.data("pillow-formats/l2rgb_read.bmp")
        #expect(throws: ImageError.self) { try coder.decode(wide, options: ImageDecodeOptions()) }
    }

    @Test func gdkPixbufFilesFollowTheirVerdicts() throws {
        for name in ["fail/bug776694.bmp", "fail/bug777315.bmp", "fail/invalid.1.bmp", "cve-2015-4491.bmp"] {
            let data = try Corpus.data("gdk-pixbuf-tests/\(name)")
            #expect(throws: ImageError.self, "\(name)") { try coder.decode(data, options: ImageDecodeOptions()) }
        }
        for name in ["bmp-line-overflow.bmp", "bug775242.bmp", "decodecolormap.bmp"] {
            _ = try? coder.decode(Corpus.data("gdk-pixbuf-tests/randomly-modified/\(name)"), options: ImageDecodeOptions())
        }
        let seed = try coder.decode(Corpus.data("gdk-pixbuf-tests/randomly-modified/valid.1.bmp"), options: ImageDecodeOptions())
        #expect(seed.pixelSize == PixelSize(width: 48, height: 48))
        let masks = try coder.decode(Corpus.data("gdk-pixbuf-tests/reftests/mandatory-bitmasks.bmp"), options: ImageDecodeOptions())
        let reference = try ReferencePixels.load("gdk-pixbuf-tests/reftests/mandatory-bitmasks.bmp.ref.png")
        #expect(ReferencePixels.maximumDifference(masks.bitmap, reference) == 0)
    }

    @Test func sdlSamplesShowOnePicture() throws {
        let reference = try ReferencePixels.load("sdl-image-samples/sample.png")
        for name in ["sample.bmp", "palette.bmp"] {
            let image = try coder.decode(Corpus.data("sdl-image-samples/\(name)"), options: ImageDecodeOptions())
            #expect(image.pixelSize == PixelSize(width: 23, height: 42))
            let difference = ReferencePixels.maximumDifference(image.bitmap, reference)
            #expect(difference != nil && difference! <= (name == "palette.bmp" ? 255 : 0), "\(name): \(difference.map(String.init) ?? "size")")
        }
    }

    @Test func thumbnailIsResampledFromTheFullImage() throws {
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 32, height: 32))
        let image = try coder.decode(Corpus.data("bmpsuite/g/rgb24.bmp"), options: options)
        #expect(image.pixelSize == PixelSize(width: 32, height: 16))
    }
}
