import Foundation
import Testing

@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// SDWebImage's cache keeps a thumbnail it decoded from a full-size disk entry in memory
/// under the thumbnail's key, and never under the full-size key.
@Suite("ImageCache thumbnail queries")
struct ImageCacheThumbnailMemoryTests {
    private let folder = TemporaryDirectory(prefix: "image-cache-thumbnail")

    @Test func aThumbnailDecodedFromTheFullSizeEntryIsKeptUnderTheThumbnailKey() async throws {
        let cache = ImageCache(namespace: "test", directory: folder.url)
        try cache.diskStorage.store(try ManagerTestImage.png(width: 40, height: 20), forKey: "k", metadata: nil)
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 10, height: 10)
        let thumbnailKey = ImageCache.thumbnailKey(for: "k", pixelSize: PixelSize(width: 10, height: 10), preservingAspectRatio: true)
        #expect(thumbnailKey != "k")

        let first = try #require(try await cache.image(forKey: "k", decodeOptions: options))
        #expect(first.cacheType == .disk && first.image.pixelSize == PixelSize(width: 10, height: 5))
        #expect(cache.imageFromMemory(forKey: thumbnailKey) === first.image)
        #expect(cache.imageFromMemory(forKey: "k") == nil, "a thumbnail never stands for the full-size key")

        // The next query of the thumbnail key answers from memory, without decoding.
        let again = try #require(try await cache.image(forKey: thumbnailKey, decodeOptions: options))
        #expect(again.cacheType == .memory && again.image === first.image)
    }

    @Test func theManagerNamesThumbnailEntriesWithTheSameKey() {
        let manager = ImageManager(cache: ImageCache(namespace: "test", directory: folder.url), loader: FileImageLoader())
        let url = URL(string: "https://example.com/a.png")!
        let request = ImageRequest(url: url, thumbnailPixelSize: PixelSize(width: 10, height: 8), preserveAspectRatio: false)
        #expect(
            manager.cacheKey(for: request)
                == ImageCache.thumbnailKey(for: url.absoluteString, pixelSize: PixelSize(width: 10, height: 8), preservingAspectRatio: false))
    }
}
