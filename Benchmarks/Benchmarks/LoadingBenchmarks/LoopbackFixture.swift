import Foundation
import LoopbackHTTPServer
import NIOConcurrencyHelpers
import WebImage

/// The loopback server with 1,000 distinct JPEGs of about 50 KB, and the downloaders that
/// fetch them. Started once, by the first benchmark's setup.
final class LoopbackFixture: Sendable {
    private struct State {
        var server: LoopbackHTTPServer?
        var urls: [URL] = []
    }

    private let state = NIOLockedValueBox(State())
    /// Our downloader, six downloads at once.
    let downloader: ImageDownloader

    init() {
        var configuration = ImageDownloaderConfiguration()
        configuration.maxConcurrentDownloads = 6
        downloader = ImageDownloader(configuration: configuration)
    }

    /// The image URLs.
    var urls: [URL] { state.withLockedValue { $0.urls } }

    /// Starts the server and makes the images, once.
    func start() async throws {
        guard state.withLockedValue({ $0.server == nil }) else { return }
        let server = try await LoopbackHTTPServer.start()
        var urls: [URL] = []
        for index in 0..<1000 {
            let body = try LoopbackFixture.jpeg(seed: index)
            let path = "/images/\(index).jpg"
            server.route(path) { _, response in
                await response.respond(headers: [("Content-Type", "image/jpeg")], body: body)
            }
            urls.append(server.url(for: path))
        }
        state.withLockedValue { state in
            state.server = server
            state.urls = urls
        }
    }

    /// Calls `load` for every image URL, all at once, and waits for every call.
    func downloadAll(_ load: @escaping @Sendable (URL) async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for url in urls {
                group.addTask { try await load(url) }
            }
            try await group.waitForAll()
        }
    }

    /// A manager on a cache in `folder`, loading through ``downloader``.
    func manager(cachingIn folder: URL) -> ImageManager {
        ImageManager(cache: ImageCache(namespace: "bench", directory: folder), loader: downloader)
    }

    /// A noisy 400×300 picture, different for every seed, as a JPEG of roughly 50 KB.
    private static func jpeg(seed: Int) throws -> [UInt8] {
        var generator = SplitMix64(seed: UInt64(seed))
        var bitmap = Bitmap(width: 400, height: 300)
        for y in 0..<300 {
            for x in 0..<400 {
                let offset = (y * 400 + x) * 4
                let noise = UInt8(truncatingIfNeeded: generator.next() & 0x3F)
                bitmap.pixels[offset] = UInt8(truncatingIfNeeded: x / 2) &+ noise
                bitmap.pixels[offset + 1] = UInt8(truncatingIfNeeded: y / 2) &+ noise
                bitmap.pixels[offset + 2] = UInt8(truncatingIfNeeded: seed) &+ noise
                bitmap.pixels[offset + 3] = 255
            }
        }
        return Array(try JPEGCoder().encode(Image(bitmap: bitmap), as: .jpeg, options: ImageEncodeOptions(quality: 0.8)))
    }
}
