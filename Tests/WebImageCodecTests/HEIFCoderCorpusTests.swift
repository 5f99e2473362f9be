#if HEIF
import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
import WebImageHEIF
import WebImageTestSupport

/// The HEIF coder, through the shared coders manager (so that the `.avif` files among
/// them go to the AVIF coder), against libheif's examples, test data and fuzzing corpus
/// and pillow-heif's images.
@Suite(Corpus.required, Corpus.skippedUnderThreadSanitizer)
struct HEIFCoderCorpusTests {
    static let folders = ["libheif-data", "pillow-heif-images"]

    /// Every file of `folder` with its verdict.
    static func entries(in folder: String) -> [CorpusManifest.Entry] {
        (try? CorpusManifest(folder: folder))?.entries ?? []
    }

    /// Valid files that libheif 1.15.1 (Debian 12) refuses with an error other than
    /// "unsupported": it skips items of a type it does not know (AVC, JPEG, JPEG 2000,
    /// VVC, `unci` uncompressed), so their files fail with "'pitm' box references a
    /// non-existing image"; and the `mif3`/`mini` low-overhead files, newer than it, are
    /// not sniffed as HEIF at all.
    static func isKnownFailure(_ path: String) -> Bool {
        let name = (path as NSString).lastPathComponent
        let unknownItemTypes = ["avc32", "j2k32", "jpeg32", "unci32", "vvc32", "rgb_generic_compressed_", "uncompressed_"]
        return unknownItemTypes.contains { name.hasPrefix($0) } || name.contains("-mini.") || name.hasPrefix("lightning_mini")
            || name.hasPrefix("simple_osm_tile_")
    }

    /// Sizes that differ from the manifest's: pillow-heif shows another image of this
    /// file whose primary item ID is invalid; libheif 1.15 falls back to the first image.
    static let displayedSizes: [String: PixelSize] = [
        "pillow-heif-images/heif_other/invalid_id.heic": PixelSize(width: 1197, height: 1227)
    ]

    /// Every file called valid decodes to the size Pillow read, or — for a codec or box
    /// that Debian's libheif 1.15 lacks (AVC, JPEG 2000, VVC, `unci`, the `mini` box) —
    /// ends in ``ImageError/Code/unsupportedFormat``. The frame count is not compared:
    /// Pillow counts top-level images, and this coder decodes the primary one.
    @Test(arguments: folders)
    func validFilesDecode(_ folder: String) throws {
        var decoded: [String] = [], refused: [String] = []
        for entry in Self.entries(in: folder) where entry.expected == "ok" {
            let path = "\(folder)/\(entry.path)"
            let data = try Corpus.data(path)
            do {
                let image = try ImageCodersManager.shared.decode(data)
                decoded.append(entry.path)
                if let expected = Self.displayedSizes[path] {
                    #expect(image.pixelSize == expected, "\(path): \(image.pixelSize)")
                } else if let size = entry.size {
                    #expect(image.pixelSize == PixelSize(width: size.width, height: size.height), "\(path): \(image.pixelSize)")
                }
            } catch {
                refused.append("\(entry.path): \(error)")
                #expect(error.code == .unsupportedFormat || Self.isKnownFailure(path), "\(path): \(error)")
            }
        }
        print("\(folder): \(decoded.count) decoded, \(refused.count) refused: \(refused)")
        #expect(decoded.count >= Self.minimumDecoded[folder, default: 1])
    }

    /// The decoded counts measured when this suite was written, so a regression shows.
    static let minimumDecoded: [String: Int] = ["libheif-data": 10, "pillow-heif-images": 31]

    /// Files called invalid end in a typed error; reproducers end in an image or a typed
    /// error, without crashing or hanging.
    @Test(arguments: folders)
    func invalidAndFuzzFilesEndCleanly(_ folder: String) throws {
        for entry in Self.entries(in: folder) where entry.expected != "ok" {
            let data = try Corpus.data("\(folder)/\(entry.path)")
            if entry.expected == "bad" {
                #expect(throws: ImageError.self, "\(folder)/\(entry.path)") { try ImageCodersManager.shared.decode(data) }
            } else {
                _ = try? ImageCodersManager.shared.decode(data)
            }
        }
    }

    @Test func gridPhotoIsAssembledAndRotated() throws {
        let arrow = try HEIFCoder().decode(Corpus.data("pillow-heif-images/heif_other/arrow.heic"), options: ImageDecodeOptions())
        #expect(arrow.pixelSize == PixelSize(width: 3024, height: 4032))
        #expect(arrow.format == .heic)
    }

    @Test func tenBitFileDecodesAsSixteenBits() throws {
        let image = try HEIFCoder().decode(Corpus.data("pillow-heif-images/heif/RGB_10__29x100.heif"), options: ImageDecodeOptions())
        #expect(image.bitmap.pixelFormat == .rgba16)
        // Scaled to 16 bits, not narrowed to 8: some samples are not of the form v × 257.
        let samples = image.bitmap.pixels.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
        #expect(samples.contains { $0 % 257 != 0 })
        #expect(samples.max() == 65535)
    }

    @Test func alphaIsKept() throws {
        let image = try HEIFCoder().decode(Corpus.data("libheif-data/tests-data/with-alpha-512x512.heic"), options: ImageDecodeOptions())
        #expect(image.hasAlpha)
    }

    @Test func avifBrandedFilesGoToTheAVIFCoder() throws {
        let data = try Corpus.data("libheif-data/examples/example.avif")
        #expect(!HEIFCoder().canDecode(data))
        #if AVIF
        #expect(AVIFCoder().canDecode(data))
        #endif
    }

    /// pillow-heif's 200-megapixel photo is refused by the default pixel limit before
    /// libheif decodes a tile.
    @Test func twoHundredMegapixelsAreRefused() throws {
        let data = try Corpus.data("pillow-heif-images/heif_special/200MP.heic")
        do {
            _ = try HEIFCoder().decode(data, options: ImageDecodeOptions())
            Issue.record("a 200 MP HEIC decoded under the default limit")
        } catch {
            #expect(error.code == .imageTooLarge, "\(error)")
        }
    }

    @Test func thumbnailIsResampled() throws {
        let image = try HEIFCoder().decode(
            Corpus.data("libheif-data/examples/example.heic"), options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 128, height: 128)))
        #expect(image.pixelSize == PixelSize(width: 128, height: 85))
    }
}
#endif
