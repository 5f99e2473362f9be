import Foundation
import LoopbackHTTPServer
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// A transformer that draws a new image of its own, naming no format, as most custom
/// transformers do.
private struct RedrawingTransformer: ImageTransformer {
    let key = "redraw"

    func transform(_ image: Image) -> Image? {
        try? Image(bitmap: image.bitmap.resized(to: PixelSize(width: 4, height: 3)))
    }
}

/// SDWebImage's transformers keep the source's format (`preserveImageMetadata`), and its
/// cache encodes an image without bytes in that format.
@Suite("A transformed image keeps its source's format", .timeLimit(.minutes(15)))
struct ImageManagerTransformedFormatTests {
    @Test func aTransformedJPEGReportsJPEG() async throws {
        try await ManagerTestHarness.run { harness in
            harness.serve("/a.jpg", try ManagerTestImage.jpeg(width: 8, height: 6), headers: [("Content-Type", "image/jpeg")])
            let request = ImageRequest(url: harness.url("/a.jpg"), transformer: RedrawingTransformer())
            let response = try await harness.load(request)
            let image = try #require(response.image)
            #expect(image.pixelSize == PixelSize(width: 4, height: 3))
            #expect(image.format == .jpeg)
        }
    }

    @Test func aTransformedOpaquePNGIsStoredAsPNG() async throws {
        try await ManagerTestHarness.run { harness in
            harness.serve("/a.png", try ManagerTestImage.png(width: 8, height: 6))
            let request = ImageRequest(url: harness.url("/a.png"), transformer: RedrawingTransformer())
            let response = try await harness.load(request)
            #expect(response.image?.format == .png)
            let stored = try #require(harness.cache.diskStorage.data(forKey: harness.manager.cacheKey(for: request)))
            #expect(try ImageCodersManager.shared.decode(stored).format == .png)
        }
    }
}
