import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
@testable import WebImageJPEG
import WebImageTestSupport

/// The corpora's JPEGs before and after the decoder moved to libjpeg's classic API: the
/// files TurboJPEG's API refused for their sampling factors, and truncated copies (some
/// with junk before a marker) that TurboJPEG reported complete. Each test prints its
/// before/after counts.
@Suite(Corpus.required, Corpus.skippedUnderThreadSanitizer) struct JPEGDecoderCorpusCountsTests {
    let coder = JPEGCoder()

    /// Every 8-bit JPEG of the corpora up to 1 MB, by path inside the corpora (wuffs'
    /// `*.truncated.jpeg` files are truncated on purpose and refused by both decoders).
    static func corpusJPEGs() -> [String] {
        ["libjpeg-turbo-testimages", "exif-orientation-examples", "wuffs-test-data", "sdwebimage", "link-u-avif-samples", "large-images"]
            .flatMap { folder in
                Corpus.relativePaths(under: folder, extensions: ["jpg", "jpeg"]).map { "\(folder)/\($0)" }
            }
            .filter { path in
                let size = (try? FileManager.default.attributesOfItem(atPath: Corpus.url(path).path)[.size] as? Int) ?? 0
                return size <= 1 << 20 && !path.contains("monkey12")
            }
    }

    /// Whether libjpeg, decoding `jpeg` at 1/8 scale, says the data ended early.
    static func libjpegSaysTruncated(_ jpeg: Data) -> Bool {
        jpeg.withUnsafeBytes { bytes in
            let result = Result { () throws(ImageError) -> Bool in
                let decompressor = try JPEGDecompressor(bytes, maxMemory: 1 << 30)
                _ = try decompressor.readHeader()
                let size = try decompressor.start(scale: JPEGScale(numerator: 1, denominator: 8), pixels: .rgba)
                let rows = UnsafeMutableRawPointer.allocate(byteCount: size.width * size.height * 4, alignment: 16)
                defer { rows.deallocate() }
                _ = try decompressor.readRows(into: rows, stride: size.width * 4, count: size.height)
                try decompressor.finish()
                return decompressor.dataEndedEarly
            }
            return (try? result.get()) ?? false
        }
    }

    @Test func truncatedCopiesAreNoLongerReportedComplete() throws {
        var truncated = 0, completeBefore = 0, completeAfter = 0
        for path in Self.corpusJPEGs() {
            let original = try Corpus.data(path)
            let withJunk = (try? JPEGDecoderLimitsTests.insertingJunkBeforeScan(original)) ?? original
            for source in [original, withJunk] {
                for percent in [30, 50, 70, 90, 99] {
                    let cut = source.prefix(source.count * percent / 100)
                    guard Self.libjpegSaysTruncated(cut) else { continue }
                    truncated += 1
                    if case .some(let warning) = JPEGDecoderLimitsTests.turboJPEGWarning(cut),
                        warning?.lowercased().contains("premature end") != true
                    {
                        completeBefore += 1
                    }
                    if (try? coder.decode(cut, options: ImageDecodeOptions())) != nil {
                        completeAfter += 1
                    }
                }
            }
        }
        print(
            "JPEG truncation corpus: \(truncated) copies truncated by libjpeg's account; reported complete: \(completeBefore) with TurboJPEG's first warning, \(completeAfter) now")
        #expect(truncated > 100)
        #expect(completeBefore > 0)
        #expect(completeAfter == 0)
    }

    @Test func filesTurboJPEGRefusedForTheirSamplingNowDecode() throws {
        var refusedBefore: [String] = []
        var refusedNow: [String] = []
        for path in Self.corpusJPEGs() {
            let data = try Corpus.data(path)
            let turboRefuses = JPEGDecoderLimitsTests.turboJPEGWarning(data) == nil
            let decoded = (try? coder.decode(data, options: ImageDecodeOptions())) != nil
            if turboRefuses { refusedBefore.append(path) }
            if !decoded, !path.contains("truncated") { refusedNow.append(path) }
        }
        print(
            "JPEG corpus: TurboJPEG refused \(refusedBefore.count) (\(refusedBefore.joined(separator: ", "))); refused now: \(refusedNow.count) (\(refusedNow.joined(separator: ", ")))"
        )
        #expect(refusedNow.isEmpty)
        let reference = try coder.decode(try Corpus.data("wuffs-test-data/peacock.s1x1-444.jpeg"), options: ImageDecodeOptions())
        for name in ["peacock.s1x3", "peacock.s-weird", "peacock.s-very-weird"] {
            let path = "wuffs-test-data/\(name).jpeg"
            #expect(refusedBefore.contains(path))
            let image = try coder.decode(try Corpus.data(path), options: ImageDecodeOptions())
            #expect(image.pixelSize == PixelSize(width: 100, height: 75))
            #expect(JPEGCoderTests.meanDifference(image.bitmap, reference.bitmap) < 8)
        }
    }
}
