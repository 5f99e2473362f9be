#if JXL
import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
import WebImageJXL
import WebImageTestSupport

/// The JPEG XL coder against the official conformance bitstreams, jxl-rs's and libjxl's
/// test files and two fuzzers' findings.
@Suite(Corpus.required, Corpus.skippedUnderThreadSanitizer)
struct JXLCoderCorpusTests {
    let coder = JXLCoder()

    static let folders = ["jxl-conformance", "jxl-rs-resources", "libjxl-testdata", "jxl-oxide-fuzz-findings", "sdl-image-samples"]

    /// The JPEG XL files of `folder` with their verdicts: `.jxl`, or (the fuzz findings)
    /// any file.
    static func entries(in folder: String) -> [CorpusManifest.Entry] {
        guard let manifest = try? CorpusManifest(folder: folder) else { return [] }
        return folder == "jxl-oxide-fuzz-findings" ? manifest.entries : manifest.entries(withExtensions: ["jxl"])
    }

    /// The frame count a conformance case's `test.json` gives, else `nil`.
    static func conformanceFrameCount(_ path: String) -> Int? {
        let json = Corpus.url("jxl-conformance/" + (path as NSString).deletingLastPathComponent + "/test.json")
        guard let data = try? Data(contentsOf: json), let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let frames = object["frames"] as? [Any]
        else { return nil }
        return frames.count
    }

    /// Valid files that libjxl 0.7.0 (Debian 12) refuses: a container box with a 64-bit
    /// size and a splines file, both decoded by later versions.
    static let knownFailures: Set<String> = [
        "libjxl-testdata/jxl/boxes/square-extended-size-container.jxl", "libjxl-testdata/jxl/splines.jxl",
    ]

    /// Invalid files that libjxl 0.7.0 decodes: it does not check the order of `jxlp`
    /// boxes after the first frame.
    static let knownAccepted: Set<String> = ["jxl-rs-resources/invalid_animated_ooo_jxlp.jxl"]

    /// Displayed sizes that differ from the manifest's: Pillow's plugin reported this
    /// file before its orientation (6) was applied.
    static let displayedSizes: [String: PixelSize] = [
        "jxl-conformance/testcases/bench_oriented_brg/input.jxl": PixelSize(width: 606, height: 500)
    ]

    /// Every file called valid decodes to the displayed size Pillow read and, for the
    /// conformance cases, the frame count in `test.json`.
    @Test(arguments: folders)
    func validFilesDecode(_ folder: String) throws {
        var decoded: [String] = [], failed: [String] = []
        for entry in Self.entries(in: folder) where entry.expected == "ok" {
            let path = "\(folder)/\(entry.path)"
            do {
                let image = try coder.decode(Corpus.data(path), options: ImageDecodeOptions())
                decoded.append(entry.path)
                #expect(image.format == .jxl)
                if let expected = Self.displayedSizes[path] {
                    #expect(image.pixelSize == expected, "\(path): \(image.pixelSize)")
                } else if let size = entry.size {
                    #expect(image.pixelSize == PixelSize(width: size.width, height: size.height), "\(path): \(image.pixelSize)")
                }
                if folder == "jxl-conformance", let frames = Self.conformanceFrameCount(entry.path) {
                    #expect(image.frames.count == frames, "\(path): \(image.frames.count) frames")
                }
            } catch {
                failed.append("\(entry.path): \(error)")
                #expect(Self.knownFailures.contains(path), "\(path): \(error)")
            }
        }
        print("\(folder): \(decoded.count) decoded, \(failed.count) failed: \(failed)")
    }

    /// Every file called invalid ends in a typed error; fuzz findings and other `either`
    /// files end in an image or a typed error, without crashing or hanging.
    @Test(arguments: folders)
    func invalidAndFuzzFilesEndCleanly(_ folder: String) throws {
        var refused = 0, total = 0
        for entry in Self.entries(in: folder) where entry.expected != "ok" {
            let data = try Corpus.data("\(folder)/\(entry.path)")
            total += 1
            if entry.expected == "bad" && !Self.knownAccepted.contains("\(folder)/\(entry.path)") {
                #expect(throws: ImageError.self, "\(folder)/\(entry.path)") { try coder.decode(data, options: ImageDecodeOptions()) }
            } else if (try? coder.decode(data, options: ImageDecodeOptions())) == nil {
                refused += 1
            }
        }
        print("\(folder): \(refused) of \(total) invalid or fuzz files refused")
    }

    /// The conformance references that are 8-bit PNGs match within lossy tolerance. Not
    /// `grayscale`: it carries an ICC profile, and its reference is converted to sRGB,
    /// which this coder (like the others) does not do.
    @Test(arguments: ["alpha_nonpremultiplied", "alpha_triangles", "lz77_flower"])
    func conformanceReferencesMatch(_ name: String) throws {
        let image = try coder.decode(Corpus.data("jxl-conformance/testcases/\(name)/input.jxl"), options: ImageDecodeOptions())
        let reference = try PNGCoder().decode(Corpus.data("jxl-conformance/testcases/\(name)/ref.png"), options: ImageDecodeOptions()).bitmap
        let difference = try #require(ReferencePixels.maximumDifference(image.bitmap.convertedToRGBA8(), reference.convertedToRGBA8()))
        #expect(difference <= 8, "\(name): \(difference)")
    }

    @Test func animationHasItsFramesAndDurations() throws {
        let data = try Corpus.data("jxl-conformance/testcases/animation_icos4d/input.jxl")
        let info = try coder.animationInfo(of: data)
        #expect(info.frameCount == Self.conformanceFrameCount("testcases/animation_icos4d/input.jxl"))
        #expect(info.frameDurations.allSatisfy { abs($0 - 0.05) < 0.001 })
        let image = try coder.decode(data, options: ImageDecodeOptions())
        #expect(image.frames.count == info.frameCount)
    }

    @Test func progressiveFileShowsAPartialImage() throws {
        let data = try Corpus.data("jxl-rs-resources/progressive_ac.jxl")
        let partial = try coder.decodeIncrementally(data.prefix(data.count / 2), isComplete: false, options: ImageDecodeOptions())
        let image = try #require(partial, "half of a progressive file shows something")
        #expect(image.pixelSize == PixelSize(width: 2268, height: 1512))
    }

    @Test func sdlSampleMatchesItsPNG() throws {
        let image = try coder.decode(Corpus.data("sdl-image-samples/sample.jxl"), options: ImageDecodeOptions())
        let reference = try ReferencePixels.load("sdl-image-samples/sample.png")
        let difference = try #require(ReferencePixels.maximumDifference(image.bitmap, reference))
        #expect(difference <= 40, "\(difference)")
    }
}
#endif
