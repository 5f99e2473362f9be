import Foundation
import LoopbackHTTPServer
import Testing

@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// The manager's hooks from SDWebImage 5: the cache serializer, the options processor and
/// the per-request scale factor.
@Suite("ImageManager hooks")
struct ImageManagerHooksTests {
    @Test func theCacheSerializerChoosesTheBytesStoredOnDisk() async throws {
        try await ManagerTestHarness.run { harness in
            let png = try ManagerTestImage.png(tint: 4)
            for path in ["/plain.png", "/gif.png", "/request.png"] {
                harness.serve(path, png)
            }
            // The cache encodes a PNG as PNG with the same encoder that made `png`, so the
            // re-encoded bytes would equal it; bytes after IEND (which decoders skip) tell
            // the downloaded bytes from the cache's own encoding.
            let served = png + Data("after IEND".utf8)
            harness.serve("/encoded.png", served)
            let plain = harness.url("/plain.png")
            #expect(try await harness.load(plain).image != nil)
            #expect(harness.cache.diskStorage.data(forKey: plain.absoluteString) == png, "the downloaded bytes by default")

            let seen = ImageResponseRecorder()
            harness.manager.cacheSerializer = { image, data, url in
                seen.record(ImageResponse(image: image, data: data, url: url))
                return try? ImageCodersManager.shared.encode(image, as: .gif)
            }
            let gif = harness.url("/gif.png")
            #expect(try await harness.load(gif).image?.format == .png)
            let stored = try #require(harness.cache.diskStorage.data(forKey: gif.absoluteString))
            #expect(ImageFormat(sniffing: stored) == .gif)
            #expect(seen.responses.map(\.data) == [png] && seen.responses.map(\.url) == [gif])

            // A request's serializer wins; one that returns nil lets the cache encode the image.
            var request = ImageRequest(url: harness.url("/request.png"))
            request.cacheSerializer = { _, _, _ in Data("not an image".utf8) }
            _ = try await harness.load(request)
            #expect(harness.cache.diskStorage.data(forKey: request.url!.absoluteString) == Data("not an image".utf8))
            harness.manager.cacheSerializer = { _, _, _ in nil }
            let encoded = harness.url("/encoded.png")
            _ = try await harness.load(encoded)
            let reencoded = try #require(harness.cache.diskStorage.data(forKey: encoded.absoluteString))
            let decoded = try ImageCodersManager.shared.decode(reencoded), original = try ImageCodersManager.shared.decode(png)
            #expect(decoded.pixelSize == original.pixelSize)
            #expect(ImageFormat(sniffing: reencoded) == .png, "the image's own format")
            #expect(reencoded != served, "the cache's own encoding of the image")
            #expect(seen.count == 1, "memory-only stores and other requests never reach it")
        }
    }

    @Test func theOptionsProcessorRewritesEveryLoad() async throws {
        try await ManagerTestHarness.run { harness in
            harness.serve("/thumbs/a.png", try ManagerTestImage.png(width: 8, height: 6))
            harness.serve("/full/a.png", try ManagerTestImage.png(width: 8, height: 6))
            harness.serve("/offline/a.png", try ManagerTestImage.png())
            harness.manager.optionsProcessor = { request in
                var request = request
                let path = request.url?.path ?? ""
                if path.hasPrefix("/thumbs/") { request.thumbnailPixelSize = PixelSize(width: 4, height: 4) }
                if path.hasPrefix("/offline/") { request.options.insert(.fromCacheOnly) }
                return request
            }
            let thumb = harness.url("/thumbs/a.png")
            #expect(try await harness.load(thumb).image?.pixelSize == PixelSize(width: 4, height: 3))
            #expect(try await harness.manager.image(from: harness.url("/full/a.png")).image?.pixelSize == PixelSize(width: 8, height: 6))
            // The synchronous memory hit looks up the processed request's key.
            let recorder = ImageResponseRecorder()
            harness.manager.loadImage(with: thumb, completion: recorder.record)
            #expect(recorder.responses.map { $0.image?.pixelSize } == [PixelSize(width: 4, height: 3)])
            let offline = try await harness.load(harness.url("/offline/a.png"))
            #expect(offline.error?.code == .notFound)
            #expect(harness.server.requestCount(for: "/offline/a.png") == 0)
            #expect(harness.server.requestCount(for: "/thumbs/a.png") == 1)
        }
    }

    @Test func aRequestsScaleFactorOverridesTheKeys() async throws {
        try await ManagerTestHarness.run { harness in
            harness.serve("/a@2x.png", try ManagerTestImage.png())
            harness.serve("/b@2x.png", try ManagerTestImage.png())
            harness.serve("/c@2x.png", try ManagerTestImage.png())
            #expect(try await harness.load(harness.url("/a@2x.png")).image?.scale == 2)
            var request = ImageRequest(url: harness.url("/b@2x.png"))
            request.scaleFactor = 3
            #expect(try await harness.load(request).image?.scale == 3)
            // From disk too, in a manager that has not seen it in memory.
            let other = harness.makeManager()
            #expect(try await harness.load(request, with: other).cacheType == .disk)
            #expect(try await harness.load(request, with: other).image?.scale == 3)
            request.url = harness.url("/c@2x.png")
            request.scaleFactor = 0.5
            #expect(try await harness.load(request).image?.scale == 2, "below 1 is ignored")
        }
    }
}
