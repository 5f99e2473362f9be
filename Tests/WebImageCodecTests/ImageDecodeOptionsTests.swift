import Testing
@testable import WebImageCore
import WebImageCoders
import WebImageTestSupport

@Suite struct ImageDecodeOptionsTests {
    let large = PixelSize(width: 5250, height: 3450)

    @Test func thumbnailsFitTheBoxKeepingTheAspectRatio() {
        // SDWebImage's own expectations for its 5250×3450 fixture.
        let box = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 400, height: 300))
        #expect(box.targetSize(forSource: large) == PixelSize(width: 400, height: 263))
        let square = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 4000, height: 4000))
        #expect(square.targetSize(forSource: large) == PixelSize(width: 4000, height: 2629))
    }

    @Test func thumbnailsWithoutAspectRatioFillTheBox() {
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 100, height: 100), preserveAspectRatio: false)
        #expect(options.targetSize(forSource: large) == PixelSize(width: 100, height: 100))
    }

    @Test func thumbnailsNeverScaleUp() {
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 1000, height: 1000))
        #expect(options.targetSize(forSource: PixelSize(width: 80, height: 60)) == PixelSize(width: 80, height: 60))
    }

    @Test func scaleDownFitsAllFramesInTheBudget() {
        let budget = 1 << 20
        let options = ImageDecodeOptions(scaleDownLimitBytes: budget)
        let size = options.targetSize(forSource: large, frameCount: 4)
        #expect(size.width * size.height * 4 * 4 <= budget)
        #expect(size.width * size.height * 4 * 4 > budget * 9 / 10)
        let ratio = Double(size.width) / Double(size.height)
        #expect(abs(ratio - 5250.0 / 3450.0) < 0.01)
        let firstOnly = ImageDecodeOptions(firstFrameOnly: true, scaleDownLimitBytes: budget)
        #expect(firstOnly.targetSize(forSource: large, frameCount: 4).width > size.width)
    }

    @Test func allocationsPastTheLimitsAreRefused() throws {
        let options = ImageDecodeOptions()
        try options.checkAllocation(PixelSize(width: 12_000, height: 8_400))
        #expect(throws: ImageError.self) { try options.checkAllocation(PixelSize(width: 20_000, height: 14_000)) }
        #expect(throws: ImageError.self) { try options.checkAllocation(PixelSize(width: 65_535, height: 65_535)) }
        #expect(throws: ImageError.self) { try options.checkAllocation(PixelSize(width: Int.max, height: 2)) }
        #expect(throws: ImageError.self) { try options.checkAllocation(PixelSize(width: 0, height: 10)) }
        #expect(throws: ImageError.self) {
            try options.checkAllocation(PixelSize(width: 4000, height: 4000), frameCount: 100)
        }
        do {
            try options.checkAllocation(PixelSize(width: 65_535, height: 65_535))
        } catch {
            #expect(error.code == .imageTooLarge)
        }
    }
}
