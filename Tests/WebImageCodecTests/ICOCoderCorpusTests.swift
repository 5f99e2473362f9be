import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
@testable import WebImageBMP
import WebImageTestSupport

/// The ICO/CUR coder against image-rs's icons (exact reference pixels), Pillow's,
/// gdk-pixbuf's and SDL_image's, and its choice of entry.
@Suite(Corpus.required, Corpus.skippedUnderThreadSanitizer)
struct ICOCoderCorpusTests {
    let coder = ICOCoder()

    static let imageRS: [CorpusManifest.Entry] = (try? CorpusManifest(folder: "image-rs-formats").entries(withExtensions: ["ico"])) ?? []

    @Test(arguments: imageRS.filter { $0.expected == "ok" }.map(\.path))
    func imageRSIconDecodes(_ path: String) throws {
        let image = try coder.decode(Corpus.data("image-rs-formats/\(path)"), options: ImageDecodeOptions())
        let entry = try #require(Self.imageRS.first { $0.path == path })
        #expect(image.format == .ico)
        if let size = entry.size { #expect(image.pixelSize == PixelSize(width: size.width, height: size.height), "\(path)") }
        let reference = "image-rs-formats/" + path.replacingOccurrences(of: "images/", with: "reference/", options: .anchored) + ".png"
        if FileManager.default.fileExists(atPath: Corpus.url(reference).path) {
            let difference = try ReferencePixels.maximumDifference(image.bitmap, ReferencePixels.load(reference))
            #expect(difference == 0, "\(path): differs from its reference by \(difference.map(String.init) ?? "size")")
        }
    }

    @Test(arguments: imageRS.filter { $0.expected != "ok" }.map(\.path))
    func imageRSBadIconEndsCleanly(_ path: String) throws {
        let data = try Corpus.data("image-rs-formats/\(path)")
        if path.hasPrefix("bad/") {
            #expect(throws: ImageError.self, "\(path)") { try coder.decode(data, options: ImageDecodeOptions()) }
        } else {
            _ = try? coder.decode(data, options: ImageDecodeOptions())
        }
    }

    @Test func pillowIconsFollowTheirVerdicts() throws {
        let sizes: [String: Int] = [
            "pillow.ico": 256, "python.ico": 48, "hopper_256x256.ico": 256, "hopper.ico": 16,
            "hopper_unexpected.ico": 16, "black_and_white.ico": 16, "deerstalker.cur": 32, "hopper_mask.ico": 16,
        ]
        for (name, side) in sizes {
            let image = try coder.decode(Corpus.data("pillow-formats/\(name)"), options: ImageDecodeOptions())
            #expect(image.pixelSize == PixelSize(width: side, height: side), "\(name)")
        }
        let cursor = try coder.decode(Corpus.data("pillow-formats/mask_L.cur"), options: ImageDecodeOptions())
        #expect(cursor.pixelSize == PixelSize(width: 1, height: 4))
        for name in ["decompression_bomb.ico", "no_cursors.cur"] {
            let data = try Corpus.data("pillow-formats/\(name)")
            #expect(throws: ImageError.self, "\(name)") { try coder.decode(data, options: ImageDecodeOptions()) }
        }
    }

    @Test func thumbnailPicksTheSmallestEntryCoveringTheBox() throws {
        let data = try Corpus.data("pillow-formats/pillow.ico")
        let full = try coder.decode(data, options: ImageDecodeOptions())
        #expect(full.pixelSize == PixelSize(width: 256, height: 256))
        let small = try coder.decode(data, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 40, height: 40)))
        #expect(small.pixelSize == PixelSize(width: 40, height: 40))
        let exact = try coder.decode(data, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 32, height: 32)))
        let entry32 = try ICOCoder.chosenEntry(data, thumbnail: PixelSize(width: 32, height: 32))
        #expect(entry32.width == 32 && exact.pixelSize == PixelSize(width: 32, height: 32))
        #expect(try ICOCoder.chosenEntry(data, thumbnail: PixelSize(width: 40, height: 40)).width == 48)
        #expect(try ICOCoder.chosenEntry(data, thumbnail: PixelSize(width: 300, height: 300)).width == 256)
    }

    @Test func gdkPixbufIconsFollowTheirVerdicts() throws {
        for name in ["fail/bug778204.ico", "fail/bug779012.ico", "fail/invalid.1.ico"] {
            let data = try Corpus.data("gdk-pixbuf-tests/\(name)")
            #expect(throws: ImageError.self, "\(name)") { try coder.decode(data, options: ImageDecodeOptions()) }
        }
        for name in ["bad-header.ico", "bug776040.ico", "invalid.2.ico"] {
            _ = try? coder.decode(Corpus.data("gdk-pixbuf-tests/randomly-modified/\(name)"), options: ImageDecodeOptions())
        }
        let squares = try coder.decode(Corpus.data("gdk-pixbuf-tests/reftests/squares.ico"), options: ImageDecodeOptions())
        let reference = try ReferencePixels.load("gdk-pixbuf-tests/reftests/squares.ico.ref.png")
        #expect(ReferencePixels.maximumDifference(squares.bitmap, reference) == 0)
        // gdk-pixbuf shows the 128-pixel entry of this 18-entry icon; this coder takes the
        // largest, the 256-pixel PNG, as Pillow does.
        let many = try coder.decode(Corpus.data("gdk-pixbuf-tests/reftests/bug785447.ico"), options: ImageDecodeOptions())
        #expect(many.pixelSize == PixelSize(width: 256, height: 256))
    }

    @Test func sdlSamplesShowOnePicture() throws {
        let reference = try ReferencePixels.load("sdl-image-samples/sample.png")
        for name in ["sample.ico", "sample.cur"] {
            let image = try coder.decode(Corpus.data("sdl-image-samples/\(name)"), options: ImageDecodeOptions())
            #expect(image.pixelSize == PixelSize(width: 23, height: 42), "\(name)")
            let difference = ReferencePixels.maximumDifference(image.bitmap, reference)
            #expect(difference == 0, "\(name): \(difference.map(String.init) ?? "size")")
        }
    }
}

extension ICOCoder {
    /// The entry the coder picks in `data` for a thumbnail box.
    static func chosenEntry(_ data: Data, thumbnail: PixelSize) throws -> (width: Int, height: Int) {
        try data.withUnsafeBytes { bytes in
            let entry = try chosenEntry(LittleEndianReader(bytes: bytes), options: ImageDecodeOptions(thumbnailPixelSize: thumbnail))
            return (entry.width, entry.height)
        }
    }
}
