import Foundation
import Testing
@testable import WebImage
import WebImageTestSupport

/// A spec whose first geometric operation is a resize decodes at a reduced size
/// (`TransformSpec.decodeOptions`), and the chain's result is the one a full-size decode
/// gives: the same size, and pixels within the measured difference of each format's
/// reduced decode (none for PNG and GIF, whose coders resample with the chain's filter).
@Suite struct ShrinkOnLoadTests {
    /// A source format and the largest channel difference its reduced decode may make:
    /// measured on this picture's 2–3 pixel stripes (libjpeg's DCT scaling and libwebp's
    /// scaler average where Lanczos-3 rings), not a bound for photographs.
    struct Source: CustomTestStringConvertible, Sendable {
        var format: ImageFormat
        var animated: Bool
        var tolerance: Int
        var testDescription: String { animated ? "animated \(format.rawValue)" : format.rawValue }
    }

    static let sources = [
        Source(format: .jpeg, animated: false, tolerance: 171),
        Source(format: .png, animated: false, tolerance: 0),
        Source(format: .webp, animated: false, tolerance: 85),
        Source(format: .gif, animated: true, tolerance: 1),
    ]

    /// Every resize mode, leading turns and flips, and crops at every gravity and at an
    /// odd-sized rectangle after a resize.
    static let specs: [String] =
        [
            "resize=150", "resize=x100", "resize=150x100", "resize=150x100,fit", "resize=150x100,fill",
            "resize=90x200,fill", "resize=150x100,stretch", "resize=150x100,fill,noenlarge",
            "rotate=90|resize=150x100,fill", "flip=h|resize=150x100,stretch", "resize=150x100,fill|crop=7,5,61x43",
        ] + ImageGravity.allCases.map { "resize=150x100,fill|crop=61x43,\($0.rawValue)" }

    /// A 641×427 picture with smooth gradients, hard edges and fine stripes.
    static func picture(frame: Int) -> Bitmap {
        Bitmap.painted(641, 427) { x, y in
            let inDisc = (x - 320 - frame * 20) * (x - 320 - frame * 20) + (y - 200) * (y - 200) < 120 * 120
            let stripes = (x / 3 + y / 5).isMultiple(of: 2)
            if inDisc { return RGBA8(red: 230, green: 40, blue: UInt8(60 + frame * 40), alpha: 255) }
            if x > 500, y > 300 { return stripes ? RGBA8(red: 20, green: 20, blue: 20, alpha: 255) : .white }
            return RGBA8(red: UInt8(x * 255 / 640), green: UInt8(y * 255 / 426), blue: UInt8((x + y) % 256), alpha: 255)
        }
    }

    static func encodedSource(_ source: Source) throws -> Data {
        let frames = (0..<(source.animated ? 3 : 1)).map { ImageFrame(bitmap: picture(frame: $0), duration: 0.1) }
        return try ImageCodersManager.shared.encode(
            Image(frames: frames, loopCount: 0), as: source.format, options: ImageEncodeOptions(quality: 0.9))
    }

    /// The largest difference of any channel of any frame.
    static func largestDifference(_ first: Image, _ second: Image) throws -> Int {
        var largest = 0
        for (a, b) in zip(first.frames, second.frames) {
            let left = try a.bitmap.convertedToRGBA8().pixels, right = try b.bitmap.convertedToRGBA8().pixels
            for index in left.indices { largest = max(largest, abs(Int(left[index]) - Int(right[index]))) }
        }
        return largest
    }

    @Test(arguments: sources)
    func shrinkOnLoadGivesTheFullDecodesResult(source: Source) throws {
        let data = try Self.encodedSource(source)
        let full = try ImageCodersManager.shared.decode(data)
        // Unoptimised resampling under ThreadSanitizer made this the suite's costliest test
        // (194 s of CPU), so work the specs share is done once: one reduced decode for each
        // set of decode options (the same bytes and options decode to the same image), and
        // the full-size result of a spec that is a listed spec plus more operations starts
        // from that spec's result (a pipeline runs its transformers one after another, so
        // the image is the same). Each spec's own pipeline still runs on the reduced decode.
        var reducedDecodes: [ImageDecodeOptions: Image] = [:]
        var fullSizeResults: [String: Image] = [:]
        for text in Self.specs {
            let spec = try TransformSpec(text)
            let shrunk = try reducedDecodes[spec.decodeOptions] ?? ImageCodersManager.shared.decode(data, options: spec.decodeOptions)
            reducedDecodes[spec.decodeOptions] = shrunk
            #expect(shrunk.pixelWidth < full.pixelWidth, "\(text) decodes at full size")
            let expected: Image
            if let cut = text.lastIndex(of: "|"), let start = fullSizeResults[String(text[..<cut])] {
                let rest = try TransformSpec(String(text[text.index(after: cut)...]))
                expected = rest.pipeline.transform(start) ?? start
            } else {
                expected = spec.pipeline.transform(full) ?? full
            }
            fullSizeResults[text] = expected
            let result = spec.pipeline.transform(shrunk) ?? shrunk
            #expect(result.pixelSize == expected.pixelSize, "\(text)")
            #expect(result.frames.count == expected.frames.count, "\(text)")
            let difference = try Self.largestDifference(result, expected)
            #expect(difference <= source.tolerance, "\(text): largest difference \(difference)")
        }
    }

    @Test func aChainThatDoesNotStartWithAResizeDecodesAtFullSize() throws {
        #expect(try TransformSpec("blur=2|resize=100").decodeOptions == ImageDecodeOptions())
        #expect(try TransformSpec("crop=10,10,50x50|resize=20").decodeOptions == ImageDecodeOptions())
        #expect(try TransformSpec("rotate=30|resize=20").decodeOptions == ImageDecodeOptions())
        #expect(try TransformSpec("rotate=90|resize=20x10,fill").decodeOptions.thumbnailPixelSize == PixelSize(width: 10, height: 20))
    }
}
