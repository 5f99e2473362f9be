#if SVG
import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
@testable import WebImageSVG
import WebImageTestSupport

/// The SVG coder against resvg's own test suite: every SVG rendered at the size of resvg's
/// reference PNG and compared with it, per feature group, and against what `rsvg-convert`
/// (librsvg's own tool, when installed) renders at all.
///
/// Run `swift test --filter SVGCoderCorpusTests` to print the table the README shows.
@Suite(Corpus.required, Corpus.skippedUnderThreadSanitizer)
struct SVGCoderCorpusTests {
    static let folder = "resvg-tests"

    /// The mean difference, in levels of 255 per channel of premultiplied RGBA, within
    /// which a rendering counts as matching resvg's: 6 % (15.3 levels). librsvg 2.54 and
    /// resvg disagree on much of the suite's corner cases (invalid attributes, filter
    /// regions, fonts), so the table also shows the share within 2 % (5.1 levels).
    static let threshold = 0.06 * 255

    /// The tighter mean difference the table also counts: 2 % (5.1 levels).
    static let closeThreshold = 0.02 * 255

    /// The share of the files rendered here that must match within ``threshold``.
    static let requiredMatchingShare = 0.9

    /// How many files of the suite that `rsvg-convert` renders `SVGScreening` refuses, by
    /// its reason: each is a rule of the screen refusing what librsvg would have rendered.
    /// `feTile` because librsvg 2.54 aborts the process on one of them; the nested SVG
    /// documents (and the SVGZ and WebP images) because gdk-pixbuf would hand them to
    /// librsvg or a loader nobody checked; the entity declarations because they can spell
    /// markup the screen would not see; the `@import` (of a file, which is not loaded
    /// anyway) because it can load a `data:` style sheet.
    static let expectedScreenRefusals = [
        "the SVG uses <feTile>, which makes librsvg 2.54 abort on some inputs": 6,
        "the SVG embeds a nested SVG document in <image>": 14,
        "the SVG embeds an image in <image> that is not a PNG, JPEG or GIF": 2,
        "the SVG's DOCTYPE has an internal subset (entity or other declarations)": 4,
        "the SVG has a CSS @import in a <style> element": 1,
    ]

    /// The message `SVGScreening` refuses `file` with, `nil` when it passes the file.
    static func screenRefusal(of file: URL, options: ImageDecodeOptions) throws -> String? {
        try Data(contentsOf: file).withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> String? in
            do throws(ImageError) {
                try SVGScreening.check(bytes, options: options)
                return nil
            } catch {
                return error.message
            }
        }
    }

    /// `rsvg-convert`, when it is installed.
    static let rsvgConvert: URL? = ["/usr/bin/rsvg-convert", "/usr/local/bin/rsvg-convert"]
        .map { URL(fileURLWithPath: $0) }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }

    /// Whether `rsvg-convert` renders the file (exits with 0).
    static func rsvgConvertRenders(_ file: URL, with tool: URL) throws -> Bool {
        let process = Process()
        process.executableURL = tool
        process.arguments = [file.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// The mean absolute difference per channel of two bitmaps of one size, in
    /// premultiplied RGBA (so that the colour of a nearly transparent pixel weighs little).
    static func meanDifference(_ a: Bitmap, _ b: Bitmap) throws -> Double {
        let a = try a.convertedToRGBA8().pixels, b = try b.convertedToRGBA8().pixels
        var total = 0
        for index in stride(from: 0, to: a.count, by: 4) {
            let alphaA = Int(a[index + 3]), alphaB = Int(b[index + 3])
            for channel in 0..<3 {
                total += abs(Int(a[index + channel]) * alphaA / 255 - Int(b[index + channel]) * alphaB / 255)
            }
            total += abs(alphaA - alphaB)
        }
        return Double(total) / Double(max(1, a.count))
    }

    /// Counts for one feature group.
    struct GroupCounts {
        var files = 0
        var renderedByRSVGConvert = 0
        var renderedHere = 0
        var matching = 0
        var close = 0
        var differenceSum = 0.0
    }

    /// Every file `rsvg-convert` renders renders here too, except the ones `SVGScreening`
    /// refuses, which are ``expectedScreenRefusals``. Of the files rendered here,
    /// ``requiredMatchingShare`` are within ``threshold`` of resvg's reference.
    @Test func rendersCloseToResvgReferences() throws {
        var groups: [String: GroupCounts] = [:]
        var missedHere: [String] = [], farFromReference: [String] = []
        var screenedOut: [String: [String]] = [:]
        for path in Corpus.relativePaths(under: Self.folder, extensions: ["svg"]) {
            let group = String(path.split(separator: "/")[0])
            let file = Corpus.url("\(Self.folder)/\(path)")
            let reference = try ReferencePixels.load("\(Self.folder)/\((path as NSString).deletingPathExtension).png")
            var counts = groups[group, default: GroupCounts()]
            counts.files += 1
            let expectedToRender = try Self.rsvgConvert.map { try Self.rsvgConvertRenders(file, with: $0) } ?? true
            if Self.rsvgConvert != nil, expectedToRender {
                counts.renderedByRSVGConvert += 1
            }
            var options = ImageDecodeOptions(thumbnailPixelSize: reference.size, preserveAspectRatio: false)
            options.coderOptions[SVGScalesUpKey.self] = true
            do {
                let image = try SVGCoder().decode(Data(contentsOf: file), options: options)
                #expect(image.pixelSize == reference.size, "\(path)")
                counts.renderedHere += 1
                let difference = try Self.meanDifference(image.bitmap, reference)
                counts.differenceSum += difference
                if difference <= Self.closeThreshold {
                    counts.close += 1
                }
                if difference <= Self.threshold {
                    counts.matching += 1
                } else {
                    farFromReference.append("\(path) (\(String(format: "%.1f", difference)))")
                }
            } catch {
                if let refusal = try Self.screenRefusal(of: file, options: options) {
                    if expectedToRender { screenedOut[refusal, default: []].append(path) }
                } else if expectedToRender {
                    missedHere.append("\(path): \(error)")
                }
            }
            groups[group] = counts
        }
        let total = groups.values.reduce(into: GroupCounts()) { total, counts in
            total.files += counts.files
            total.renderedByRSVGConvert += counts.renderedByRSVGConvert
            total.renderedHere += counts.renderedHere
            total.matching += counts.matching
            total.close += counts.close
            total.differenceSum += counts.differenceSum
        }
        #expect(total.files == 1721)
        #expect(missedHere.isEmpty, "rendered by rsvg-convert, not here: \(missedHere)")
        if Self.rsvgConvert != nil {
            #expect(screenedOut.mapValues(\.count) == Self.expectedScreenRefusals, "screened out: \(screenedOut)")
        }
        let share = Double(total.matching) / Double(max(1, total.renderedHere))
        #expect(share >= Self.requiredMatchingShare, "\(total.matching) of \(total.renderedHere) within \(Self.threshold)")

        func row(_ name: String, _ counts: GroupCounts) -> String {
            let converted = Self.rsvgConvert == nil ? "–" : "\(counts.renderedByRSVGConvert)"
            func share(_ count: Int) -> String {
                "\(count) (" + String(format: "%.1f", 100 * Double(count) / Double(max(1, counts.renderedHere))) + " %)"
            }
            let mean = String(format: "%.2f", counts.differenceSum / Double(max(1, counts.renderedHere)))
            return "| \(name) | \(counts.files) | \(converted) | \(counts.renderedHere) | \(share(counts.close)) | \(share(counts.matching)) | \(mean) |"
        }
        let table =
            [
                "| group | files | rsvg-convert renders | render here | within 2 % (5.1) | within 6 % (15.3) | mean difference |",
                "|---|---:|---:|---:|---:|---:|---:|",
            ] + groups.keys.sorted().map { row($0, groups[$0]!) } + [row("**all**", total)]
        print("resvg suite against its reference PNGs:\n" + table.joined(separator: "\n"))
        print("over the threshold: \(farFromReference.joined(separator: ", "))")
        print(
            "rendered by rsvg-convert, refused by the screen:\n"
                + screenedOut.keys.sorted().map { "\(screenedOut[$0]!.count) × \($0): \(screenedOut[$0]!.joined(separator: ", "))" }
                .joined(separator: "\n")
        )
    }
}
#endif
