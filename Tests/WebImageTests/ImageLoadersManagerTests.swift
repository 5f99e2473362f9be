import Foundation
import LoopbackHTTPServer
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// A loader for the made-up `memory:` scheme that answers with a fixed image.
private struct MemoryImageLoader: ImageLoader {
    func canLoad(_ url: URL) -> Bool { url.scheme == "memory" }

    func loadImage(_ request: ImageLoadRequest) async throws(ImageError) -> ImageLoadResult {
        let bitmap = Bitmap(width: 1, height: 1, pixels: [1, 2, 3, 255])
        return ImageLoadResult(image: Image(bitmap: bitmap), data: Data())
    }
}

@Suite("ImageLoadersManager")
struct ImageLoadersManagerTests {
    @Test func routesEachSchemeToItsLoader() async throws {
        try await withDownloader { server, downloader, coder in
            server.route("/web.raw") { _, response in await response.respondWithRawImage(width: 6, height: 1) }
            let coders = ImageCodersManager(coders: [coder])
            let manager = ImageLoadersManager(loaders: [FileImageLoader(coders: coders), DataURLImageLoader(coders: coders), downloader])
            manager.addLoader(MemoryImageLoader())
            let folder = TemporaryDirectory()
            let file = folder.appending("local.raw")
            try Data(RawRGBATestCoder.encode(width: 2, height: 1)).write(to: file)
            let dataURL = try #require(URL(string: "data:;base64," + Data(RawRGBATestCoder.encode(width: 3, height: 1)).base64EncodedString()))

            let widths = try await [server.url(for: "/web.raw"), file, dataURL, URL(string: "memory:pixel")!].asyncMap { url in
                try await manager.loadImage(ImageLoadRequest(url: url)).image?.pixelWidth
            }
            #expect(widths == [6, 2, 3, 1])
            #expect(server.requestCount(for: "/web.raw") == 1)
        }
    }

    @Test func anUnknownSchemeIsInvalid() async {
        let manager = ImageLoadersManager(loaders: [FileImageLoader(), DataURLImageLoader()])
        let url = URL(string: "gopher://example.com/a")!
        #expect(!manager.canLoad(url))
        let error = await capturedError { () async throws(ImageError) in try await manager.loadImage(ImageLoadRequest(url: url)) }
        #expect(error?.code == .invalidURL)
    }

    @Test func laterLoadersWin() {
        let manager = ImageLoadersManager(loaders: [FileImageLoader()])
        manager.addLoader(DataURLImageLoader())
        manager.removeLoaders(ofType: FileImageLoader.self)
        #expect(manager.loaders.count == 1)
        #expect(manager.loaders.first is DataURLImageLoader)
    }

    @Test func onlyLastingFailuresAreBlocked() {
        let manager = ImageLoadersManager(loaders: [DataURLImageLoader()])
        let url = URL(string: "data:,x")!
        for code in [ImageError.Code.cancelled, .timedOut, .cannotFindHost, .cannotConnect, .connectionLost] {
            #expect(!manager.shouldBlockFailedURL(url, error: ImageError(code, "transient")))
        }
        #expect(manager.shouldBlockFailedURL(url, error: ImageError(.invalidStatusCode, "gone", statusCode: 404)))
        #expect(manager.shouldBlockFailedURL(url, error: ImageError(.badImageData, "junk")))
        #expect(!manager.shouldBlockFailedURL(URL(string: "gopher://x")!, error: ImageError(.badImageData, "junk")))
    }
}

extension Array where Element: Sendable {
    fileprivate func asyncMap<Mapped>(_ transform: (Element) async throws -> Mapped) async rethrows -> [Mapped] {
        var mapped: [Mapped] = []
        for element in self {
            mapped.append(try await transform(element))
        }
        return mapped
    }
}
