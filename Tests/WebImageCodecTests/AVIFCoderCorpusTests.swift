#if AVIF
import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
import WebImageAVIF
import WebImageTestSupport

/// The AVIF coder against AOM's conformance files, libavif's test data, Link-U's samples,
/// Firefox's container tests and SDL_image's sample.
@Suite(Corpus.required, Corpus.skippedUnderThreadSanitizer)
struct AVIFCoderCorpusTests {
    let coder = AVIFCoder()

    static let folders = ["av1-avif-testfiles", "libavif-test-data", "link-u-avif-samples", "mp4parse-avif", "sdl-image-samples"]

    /// The `.avif`/`.avifs` files of `folder` with their verdicts.
    static func entries(in folder: String) -> [CorpusManifest.Entry] {
        (try? CorpusManifest(folder: folder))?.entries(withExtensions: ["avif", "avifs"]) ?? []
    }

    /// Displayed sizes that differ from the manifest's, which Pillow read as coded,
    /// without the `clap` crop or the `irot` turn.
    static let displayedSizes: [String: PixelSize] = [
        "av1-avif-testfiles/Microsoft/Ronda_rotate90.avif": PixelSize(width: 1080, height: 1920),
        "libavif-test-data/abc_color_irot_alpha_NOirot.avif": PixelSize(width: 256, height: 512),
        "libavif-test-data/abc_color_irot_alpha_irot.avif": PixelSize(width: 256, height: 512),
        "libavif-test-data/clop_irot_imor.avif": PixelSize(width: 34, height: 12),
        "link-u-avif-samples/kimono.rotate90.avif": PixelSize(width: 722, height: 1024),
        "link-u-avif-samples/kimono.rotate270.avif": PixelSize(width: 722, height: 1024),
        "link-u-avif-samples/kimono.mirror-vertical.rotate270.avif": PixelSize(width: 722, height: 1024),
        "link-u-avif-samples/kimono.crop.avif": PixelSize(width: 722, height: 1024),
        "link-u-avif-samples/kimono.mirror-vertical.rotate270.crop.avif": PixelSize(width: 722, height: 1024),
        "mp4parse-avif/clap-basic-1_3x3-to-1x1.avif": PixelSize(width: 1, height: 1),
        "av1-avif-testfiles/Microsoft/Chimera_8bit_cropped_480x256.avif": PixelSize(width: 480, height: 256),
        "av1-avif-testfiles/Microsoft/Chimera_10bit_cropped_to_1920x1008.avif": PixelSize(width: 1920, height: 1008),
        "av1-avif-testfiles/Microsoft/Chimera_10bit_cropped_to_1920x1008_with_HDR_metadata.avif": PixelSize(width: 1920, height: 1008),
    ]

    /// Valid files that libavif 0.11.1 (Debian 12) refuses: a matrix its RGB conversion
    /// lacks, an audio track of size 0, a `meta` box of size 0 ("to the end of the file")
    /// and two ICC `colr` boxes, all handled by later versions.
    static let knownFailures: Set<String> = [
        "av1-avif-testfiles/Microsoft/Chimera_10bit_cropped_to_1920x1008_with_HDR_metadata.avif",
        "libavif-test-data/colors-animated-8bpc-audio.avif",
        "libavif-test-data/draw_points_idat_metasize0.avif",
        "libavif-test-data/draw_points_idat_progressive_metasize0.avif",
        "mp4parse-avif/valid-avif-colr-prof-and-rICC.avif",
    ]

    /// Invalid files that libavif 0.11.1 decodes: it does not yet require transform
    /// properties to be marked essential; and, with its strict checks off as browsers run
    /// it, an alpha plane without the `ispe` property the specification requires.
    static let knownAccepted: Set<String> = [
        "libavif-test-data/clap_irot_imir_non_essential.avif", "mp4parse-avif/corrupt/no-alpha-ispe.avif",
    ]

    /// The decoded counts measured when this suite was written, so a regression shows.
    static let minimumDecoded: [String: Int] = [
        "av1-avif-testfiles": 20, "libavif-test-data": 46, "link-u-avif-samples": 27, "mp4parse-avif": 22, "sdl-image-samples": 2,
    ]

    /// Every file called valid decodes to its displayed size and, for sequences, the frame
    /// count Pillow read.
    @Test(arguments: folders)
    func validFilesDecode(_ folder: String) throws {
        var decoded: [String] = [], failed: [String] = []
        for entry in Self.entries(in: folder) where entry.expected == "ok" {
            let path = "\(folder)/\(entry.path)"
            let data = try Corpus.data(path)
            do {
                let image = try coder.decode(data, options: ImageDecodeOptions())
                decoded.append(entry.path)
                #expect(image.format == .avif)
                if let expected = Self.displayedSizes[path] {
                    #expect(image.pixelSize == expected, "\(path): \(image.pixelSize)")
                } else if let size = entry.size {
                    #expect(image.pixelSize == PixelSize(width: size.width, height: size.height), "\(path): \(image.pixelSize)")
                }
                if let frames = entry.frames {
                    #expect(image.frames.count == frames, "\(path): \(image.frames.count) frames")
                }
            } catch {
                failed.append("\(entry.path): \(error)")
                #expect(Self.knownFailures.contains(path), "\(path): \(error)")
            }
        }
        print("\(folder): \(decoded.count) decoded, \(failed.count) failed: \(failed)")
        #expect(decoded.count >= Self.minimumDecoded[folder, default: 1], "\(folder)")
    }

    /// Every file called invalid ends in a typed error; `either` files end in an image or
    /// a typed error, without crashing or hanging.
    @Test(arguments: folders)
    func invalidFilesEndInATypedError(_ folder: String) throws {
        for entry in Self.entries(in: folder) where entry.expected != "ok" {
            let data = try Corpus.data("\(folder)/\(entry.path)")
            if entry.expected == "bad" && !Self.knownAccepted.contains("\(folder)/\(entry.path)") {
                #expect(throws: ImageError.self, "\(folder)/\(entry.path)") { try coder.decode(data, options: ImageDecodeOptions()) }
            } else {
                _ = try? coder.decode(data, options: ImageDecodeOptions())
            }
        }
    }

    /// Link-U's kimono files turn, mirror and crop one photo; each shows like the JPEG.
    @Test func transformsShowOnePicture() throws {
        let reference = try JPEGCoder().decode(Corpus.data("link-u-avif-samples/kimono.jpg"), options: ImageDecodeOptions()).bitmap
        for name in ["kimono", "kimono.rotate90", "kimono.rotate270", "kimono.mirror-horizontal", "kimono.mirror-vertical", "kimono.mirror-vertical.rotate270", "kimono.crop"] {
            let image = try coder.decode(Corpus.data("link-u-avif-samples/\(name).avif"), options: ImageDecodeOptions())
            let fraction = ReferencePixels.differingFraction(image.bitmap, reference)
            #expect(fraction != nil && fraction! < 0.2, "\(name): \(fraction.map { String($0) } ?? "size \(image.pixelSize)")")
        }
    }

    @Test func tenAndTwelveBitFilesDecodeAsSixteenBits() throws {
        for name in ["fox.profile0.10bpc.yuv420.odd-width.avif", "fox.profile2.12bpc.yuv422.avif"] {
            let image = try coder.decode(Corpus.data("link-u-avif-samples/\(name)"), options: ImageDecodeOptions())
            #expect(image.bitmap.pixelFormat == .rgba16, "\(name)")
        }
        let eight = try coder.decode(Corpus.data("link-u-avif-samples/fox.profile0.8bpc.yuv420.avif"), options: ImageDecodeOptions())
        #expect(eight.bitmap.pixelFormat == .rgba8)
    }

    @Test func sequenceDecodesOnDemandLikeTheWholeDecode() throws {
        let data = try Corpus.data("libavif-test-data/colors-animated-8bpc.avif")
        let whole = try coder.decode(data, options: ImageDecodeOptions())
        #expect(whole.frames.count == 5)
        var options = ImageDecodeOptions()
        options.decodesFramesOnDemand = true
        let image = try ImageCodersManager.shared.decode(data, options: options)
        let animation = try #require(image.animation)
        for index in [4, 1, 3] {
            #expect(try animation.frame(at: index).bitmap == whole.frames[index].bitmap, "frame \(index)")
        }
    }

    @Test func sdlSampleMatchesItsPNG() throws {
        let image = try coder.decode(Corpus.data("sdl-image-samples/sample.avif"), options: ImageDecodeOptions())
        let reference = try ReferencePixels.load("sdl-image-samples/sample.png")
        let difference = try #require(ReferencePixels.maximumDifference(image.bitmap, reference))
        #expect(difference <= 40, "\(difference)")
    }

    @Test func alphaFileHasAlpha() throws {
        let image = try coder.decode(Corpus.data("mp4parse-avif/valid-alpha.avif"), options: ImageDecodeOptions())
        #expect(image.hasAlpha)
    }
}
#endif
