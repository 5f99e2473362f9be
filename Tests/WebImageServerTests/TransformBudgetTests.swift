import Foundation
import Testing
import WebImage
@testable import WebImageServer

/// The budget's plan of a resize follows the transformer's sizes.
@Suite struct TransformBudgetTests {
    let budget = TransformBudget(ImageServerConfiguration(cacheDirectory: URL(fileURLWithPath: "/nonexistent")))

    @Test func anInsideResizePlansTheScaledPictureAndNoCanvas() throws {
        let source = PixelSize(width: 600, height: 400)
        let box = PixelSize(width: 512, height: 512)
        let inside = try budget.plan([ResizingImageTransformer(size: box, contentMode: .inside)], source: source, frames: 1)
        #expect(inside.size == PixelSize(width: 512, height: 341))
        let fit = try budget.plan([ResizingImageTransformer(size: box, contentMode: .aspectFit)], source: source, frames: 1)
        #expect(fit.size == box)
        #expect(inside.peakBytes < fit.peakBytes)
        let small = PixelSize(width: 300, height: 200)
        let kept = ResizingImageTransformer(size: box, contentMode: .inside, allowsEnlarging: false)
        #expect(try budget.plan([kept], source: small, frames: 1).size == small)
    }

    /// A covering resize (thumbor's full-fit-in) is bounded by the source's shape, not by
    /// its box: a side over the largest dimension is refused once the source's size is
    /// known; a turned box is planned turned.
    @Test func aCoveringResizeIsBoundedByTheSourcesShape() throws {
        let box = PixelSize(width: 100, height: 100)
        let outside = ResizingImageTransformer(size: box, contentMode: .outside)
        #expect(try budget.plan([outside], source: PixelSize(width: 300, height: 200), frames: 1).size == PixelSize(width: 150, height: 100))
        #expect(throws: ImageServerError.self) { try budget.plan([outside], source: PixelSize(width: 20000, height: 10), frames: 1) }
        var adaptive = ResizingImageTransformer(size: PixelSize(width: 100, height: 200), contentMode: .inside)
        adaptive.turnsBoxToPicture = true
        #expect(try budget.plan([adaptive], source: PixelSize(width: 300, height: 200), frames: 1).size == PixelSize(width: 150, height: 100))
    }
}
