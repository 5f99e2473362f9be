import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
import WebImageTestSupport

/// GIF thumbnails are composed incrementally: only the output pixels a frame (or the
/// previous frame's disposal) changes are resampled again. The frames must equal
/// resizing each full-size frame whole.
@Suite("GIF thumbnails", Corpus.required, Corpus.skippedUnderThreadSanitizer)
struct GIFThumbnailTests {
    static let files = [
        "image-gif-tests/samples/moon_impact.gif",
        "image-gif-tests/samples/gifplayer-muybridge.gif",
        "image-gif-tests/samples/alpha_gif_a.gif",
        "image-gif-tests/samples/anim-gr.gif",
        "image-gif-tests/samples/interlaced.gif",
        "sdwebimage/TestImage.gif",
        "sdwebimage/TestLoopCount.gif",
        "wuffs-test-data/animated-red-blue.gif",
        "wuffs-test-data/artificial-gif/frame-out-of-bounds.gif",
        "wuffs-test-data/artificial-gif/background-color.gif",
        "wuffs-test-data/artificial-gif/small-frame-interlaced.gif",
    ]

    @Test(arguments: files, [PixelSize(width: 37, height: 29), PixelSize(width: 8, height: 8)])
    func thumbnailFramesEqualResizedFullFrames(_ path: String, box: PixelSize) throws {
        let data = try Corpus.data(path)
        let full = try GIFCoder().decode(data, options: ImageDecodeOptions())
        let thumbnail = try GIFCoder().decode(data, options: ImageDecodeOptions(thumbnailPixelSize: box))
        try #require(thumbnail.frames.count == full.frames.count)
        let size = ImageDecodeOptions(thumbnailPixelSize: box).targetSize(forSource: full.frames[0].bitmap.size)
        for (index, (small, large)) in zip(thumbnail.frames, full.frames).enumerated() {
            // Within one level: the incremental resizer sums taps in another order than
            // Bitmap.resized's row-parallel passes, and rounds once more.
            let difference = try ReferencePixels.maximumDifference(small.bitmap, large.bitmap.resized(to: size))
            #expect(difference != nil && difference! <= 1, "\(path) frame \(index): \(String(describing: difference))")
            #expect(small.duration == large.duration)
        }
    }

    @Test func theResizerFollowsChangesInPlaces() throws {
        var source = [UInt8](repeating: 0, count: 50 * 40 * 4)
        var resizer = try IncrementalResizer(source: PixelSize(width: 50, height: 40), destination: PixelSize(width: 7, height: 6))
        for step in 0..<5 {
            let columns = (step * 9)..<(step * 9 + 6)
            let rows = (step * 7)..<(step * 7 + 11)
            for y in rows where y < 40 {
                for x in columns {
                    let offset = (y * 50 + x) * 4
                    source[offset..<offset + 4] = [UInt8(step * 50), 200, UInt8(x * 5), step.isMultiple(of: 2) ? 255 : 128]
                }
            }
            resizer.update(from: source, changedColumns: columns, changedRows: rows)
            let whole = try Bitmap(width: 50, height: 40, pixels: source).resized(to: PixelSize(width: 7, height: 6))
            #expect(resizer.bitmap == whole, "step \(step)")
        }
    }
}
