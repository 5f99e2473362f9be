import Foundation
import LoopbackHTTPServer
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// `Vary` over the library's own caches: a response is kept with the request headers it
/// varies on, and a request that sends other values gets an entry of its own.
@Suite("ImageManager Vary", .timeLimit(.minutes(15)))
struct ImageManagerVaryTests {
    /// Serves `/v.png` varying on `Accept`: 8×6 for `image/png`, 4×4 for anything else.
    private func serveVaryingOnAccept(_ harness: ManagerTestHarness) {
        harness.server.route("/v.png") { request, response in
            let wide = request.header("Accept") == "image/png"
            let body = (try? ManagerTestImage.png(width: wide ? 8 : 4, height: wide ? 6 : 4)) ?? Data()
            await response.respond(
                headers: [("Content-Type", "image/png"), ("Cache-Control", "max-age=600"), ("Vary", "Accept")], body: Array(body))
        }
    }

    @Test func varyOnAcceptKeepsTwoEntriesAndEachRequestGetsItsOwn() async throws {
        try await ManagerTestHarness.run { harness in
            serveVaryingOnAccept(harness)
            let url = harness.url("/v.png")
            let png = ImageRequest(url: url, headers: ["Accept": "image/png"])
            let webp = ImageRequest(url: url, headers: ["accept": "image/webp"])
            #expect(try await harness.load(png).image?.pixelSize == PixelSize(width: 8, height: 6))
            // A memory hit of the other variant must not answer.
            #expect(harness.manager.synchronousMemoryHit(for: webp) == nil)
            let other = try await harness.load(webp)
            #expect(other.cacheType == .none && other.image?.pixelSize == PixelSize(width: 4, height: 4))
            #expect(harness.server.requestCount(for: "/v.png") == 2)

            // Both entries are on disk, each with the headers it varies on.
            let cache = harness.makeCache()
            let key = harness.manager.cacheKey(for: png)
            let variantKey = ImageManager.variantKey(key, varyingOn: ["accept": ""], requestHeaders: webp.headers)
            #expect(await cache.metadata(forKey: key)?.variedRequestHeaders == ["accept": "image/png"])
            #expect(await cache.metadata(forKey: variantKey)?.variedRequestHeaders == ["accept": "image/webp"])

            // From disk alone, each request gets its own variant with no request.
            let manager = harness.makeManager()
            let first = try await harness.load(png, with: manager)
            let second = try await harness.load(webp, with: manager)
            #expect(first.cacheType == .disk && first.image?.pixelSize == PixelSize(width: 8, height: 6))
            #expect(second.cacheType == .disk && second.image?.pixelSize == PixelSize(width: 4, height: 4))
            #expect(harness.server.requestCount(for: "/v.png") == 2)
        }
    }

    @Test func varyStarNeverAnswersFromTheCache() async throws {
        try await ManagerTestHarness.run { harness in
            let body = try ManagerTestImage.png()
            harness.serve("/star.png", body, headers: [("Content-Type", "image/png"), ("Cache-Control", "max-age=600"), ("Vary", "*")])
            let url = harness.url("/star.png")
            _ = try await harness.load(url)
            harness.cache.clearMemory()
            let again = try await harness.load(url)
            #expect(again.image != nil && again.cacheType == .none)
            #expect(harness.server.requestCount(for: "/star.png") == 2)
        }
    }

    @Test func theVariedHeadersCompareByNameCaseInsensitively() {
        let response = DownloadResponseHead(statusCode: 200, headers: ["Vary": "Accept, X-Variant", "vary": "accept"], url: URL(string: "http://h/")!)
        let varied = DiskCacheEntryMetadata.variedRequestHeaders(of: response, requestHeaders: ["ACCEPT": "image/png"])
        #expect(varied == ["accept": "image/png", "x-variant": ""])
        var metadata = DiskCacheEntryMetadata()
        metadata.variedRequestHeaders = varied
        #expect(metadata.matchesVariedHeaders(of: ["Accept": "image/png"]))
        #expect(!metadata.matchesVariedHeaders(of: ["Accept": "image/png", "X-Variant": "b"]))
        #expect(!metadata.matchesVariedHeaders(of: [:]))
        #expect(DiskCacheEntryMetadata().matchesVariedHeaders(of: ["Accept": "x"]))
    }
}
