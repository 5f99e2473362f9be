import Foundation
import LoopbackHTTPServer
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// A prefetch into the disk cache: bytes checked by their header, stored, never decoded.
@Suite("ImagePrefetcher into the disk cache", .timeLimit(.minutes(15)))
struct ImagePrefetcherDiskTests {
    /// A PNG signature and an `IHDR` chunk declaring `width` × `height`, and no pixels.

    /// The code `body` fails with; `nil` when it succeeds.
    static func failure(_ body: () async throws(ImageError) -> Void) async -> ImageError.Code? {
        do {
            try await body()
            return nil
        } catch {
            return error.code
        }
    }

    @Test func storesTheServedBytesWithoutDecodingThem() async throws {
        try await ManagerTestHarness.run { harness in
            let png = try ManagerTestImage.png(width: 12, height: 7)
            let jpeg = try ManagerTestImage.jpeg(width: 9, height: 5)
            harness.serve("/a.png", png)
            harness.serve("/b.jpg", jpeg, headers: [("Content-Type", "image/jpeg")])
            let prefetcher = ImagePrefetcher(manager: harness.manager)
            prefetcher.destination = .diskCache
            let urls = [harness.url("/a.png"), harness.url("/b.jpg")]
            let counts = await prefetcher.prefetch(urls)
            #expect(counts.finished == 2 && counts.skipped == 0)
            for (url, bytes) in zip(urls, [png, jpeg]) {
                #expect(harness.cache.imageFromMemory(forKey: url.absoluteString) == nil, "nothing was decoded into memory")
                #expect(harness.cache.diskStorage.data(forKey: url.absoluteString) == bytes)
            }
            #expect(harness.server.requests.count == 2)

            // The later load decodes from disk without asking the server again.
            let response = try await harness.load(urls[0])
            #expect(response.cacheType == .disk)
            #expect(response.image?.pixelWidth == 12 && response.image?.pixelHeight == 7)
            #expect(await prefetcher.prefetch(urls).finished == 2)
            #expect(harness.server.requests.count == 2, "bytes on disk are not fetched again")
        }
    }

    @Test func refusesHeadersOverThePixelLimitAndBytesNoCoderAccepts() async throws {
        try await ManagerTestHarness.run { harness in
            harness.serve("/huge.png", TestImages.pngHeader(width: 100_000, height: 100_000))
            harness.serve("/text.png", Data("not an image at all".utf8))
            let huge = harness.url("/huge.png"), text = harness.url("/text.png")
            await #expect(throws: ImageError.self) {
                try await harness.manager.storeDataInDiskCache(for: ImageRequest(url: huge))
            }
            #expect(
                await Self.failure { () throws(ImageError) in
                    try await harness.manager.storeDataInDiskCache(for: ImageRequest(url: huge, options: .retryFailed))
                } == .imageTooLarge)
            #expect(
                await Self.failure { () throws(ImageError) in
                    try await harness.manager.storeDataInDiskCache(for: ImageRequest(url: text))
                } == .badImageData)
            #expect(await harness.cache.totalDiskCount() == 0)
            #expect(harness.manager.failedURLs.contains(text), "bytes that cannot decode fail the URL, as a decoding failure does")

            let prefetcher = ImagePrefetcher(manager: harness.manager)
            prefetcher.destination = .diskCache
            let counts = await prefetcher.prefetch([huge, text])
            #expect(counts.finished == 2 && counts.skipped == 2)
        }
    }

    @Test func readsEachBuiltInHeaderWithoutDecoding() throws {
        let coders = ImageCodersManager.shared
        let bitmap = ManagerTestImage.bitmap(width: 21, height: 13, tint: 9)
        for format in [ImageFormat.png, .jpeg, .gif, .webp, .bmp] {
            let data = try coders.encode(Image(bitmap: bitmap), as: format)
            #expect(try coders.checkHeader(of: data) == PixelSize(width: 21, height: 13), "\(format)")
        }
        var strict = ImageDecodeOptions()
        strict.maxPixelCount = 200
        #expect(throws: ImageError.self) { try coders.checkHeader(of: try coders.encode(Image(bitmap: bitmap), as: .png), options: strict) }
        #expect(throws: ImageError.self) { try coders.checkHeader(of: Data()) }
    }
}
