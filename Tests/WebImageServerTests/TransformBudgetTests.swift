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
}
