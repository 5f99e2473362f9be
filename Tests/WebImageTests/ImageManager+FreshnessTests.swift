import Foundation
import LoopbackHTTPServer
import NIOConcurrencyHelpers
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// HTTP's freshness rules (RFC 9111) over the library's own caches (`ImageCachePolicy.http`).
@Suite("ImageManager HTTP freshness", .timeLimit(.minutes(15)))
struct ImageManagerFreshnessTests {
    /// Serves `/f.png` as version `version` with `headers` (plus its ETag), and 304 (with
    /// `headers`) to a request naming the current ETag; `status` other than 200 answers that.
    private func serve(
        _ harness: ManagerTestHarness,
        version: NIOLockedValueBox<Int>,
        headers: NIOLockedValueBox<[(String, String)]>,
        status: NIOLockedValueBox<Int> = NIOLockedValueBox(200)
    ) {
        harness.server.route("/f.png") { request, response in
            let (current, extra, code) = (version.withLockedValue { $0 }, headers.withLockedValue { $0 }, status.withLockedValue { $0 })
            let tag = "\"v\(current)\""
            if code != 200 {
                await response.respond(status: code, headers: [("Content-Type", "text/plain")], body: Array("down".utf8))
            } else if request.header("If-None-Match") == tag {
                await response.respond(status: 304, headers: [("ETag", tag)] + extra)
            } else {
                let body = (try? ManagerTestImage.png(tint: UInt8(current))) ?? Data()
                await response.respond(headers: [("Content-Type", "image/png"), ("ETag", tag)] + extra, body: Array(body))
            }
        }
    }

    private func answers(_ manager: ImageManager, _ request: ImageRequest) async -> [ImageResponse] {
        var responses: [ImageResponse] = []
        for await event in manager.events(for: request) {
            if case let .response(response) = event { responses.append(response) }
        }
        return responses
    }

    private func inode(_ cache: ImageCache, _ key: String) -> UInt64? {
        let path = cache.diskStorage.directory.appendingPathComponent(DiskCache.fileName(forKey: key)).path
        return (try? FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? UInt64) ?? nil
    }

    @Test func aFreshEntryAnswersWithoutARequest() async throws {
        try await ManagerTestHarness.run { harness in
            serve(harness, version: NIOLockedValueBox(1), headers: NIOLockedValueBox([("Cache-Control", "max-age=600")]))
            let url = harness.url("/f.png")
            _ = try await harness.load(url)
            harness.cache.clearMemory()
            let again = try await harness.load(url)
            #expect(again.cacheType == .disk && again.image != nil)
            #expect(harness.server.requestCount(for: "/f.png") == 1)
        }
    }

    @Test func aStaleEntryIsRevalidatedAndA304RenewsItWithoutRewriting() async throws {
        try await ManagerTestHarness.run { harness in
            let headers = NIOLockedValueBox([("Cache-Control", "max-age=0")])
            serve(harness, version: NIOLockedValueBox(1), headers: headers)
            let url = harness.url("/f.png")
            let key = url.absoluteString
            let first = try await harness.load(url)
            let before = try #require(inode(harness.cache, key))
            let bytes = harness.cache.diskStorage.data(forKey: key)
            headers.withLockedValue { $0 = [("Cache-Control", "max-age=600")] }

            let answers = await answers(harness.manager, ImageRequest(url: url))
            #expect(answers.count == 1 && answers.first?.image === first.image, "the 304 lets the cached image answer, once")
            #expect(harness.server.requestCount(for: "/f.png") == 2)
            #expect(harness.server.requests.last?.header("If-None-Match") == "\"v1\"")
            #expect(inode(harness.cache, key) == before && harness.cache.diskStorage.data(forKey: key) == bytes, "the file is untouched")
            let expiry = try #require(await harness.cache.metadata(forKey: key)?.expirationDate)
            #expect(expiry > Date().addingTimeInterval(500), "the 304's max-age renewed the entry")

            _ = try await harness.load(url)
            #expect(harness.server.requestCount(for: "/f.png") == 2, "now fresh: no request")
        }
    }

    @Test func noStoreKeepsNothingOnDiskAndNoCacheAsksEveryTime() async throws {
        try await ManagerTestHarness.run { harness in
            let headers = NIOLockedValueBox([("Cache-Control", "no-store")])
            serve(harness, version: NIOLockedValueBox(1), headers: headers)
            let url = harness.url("/f.png")
            let loaded = try await harness.load(url)
            #expect(loaded.image != nil)
            #expect(await harness.cache.diskImageExists(forKey: url.absoluteString) == false)

            headers.withLockedValue { $0 = [("Cache-Control", "no-cache")] }
            harness.cache.clearMemory()
            _ = try await harness.load(url)
            _ = try await harness.load(url)
            _ = try await harness.load(url)
            #expect(harness.server.requestCount(for: "/f.png") == 4, "no-cache: one request per load, memory hits included")
        }
    }

    @Test func staleWhileRevalidateAnswersAtOnceThenAgainIfChanged() async throws {
        try await ManagerTestHarness.run { harness in
            let version = NIOLockedValueBox(1)
            serve(harness, version: version, headers: NIOLockedValueBox([("Cache-Control", "max-age=0, stale-while-revalidate=600")]))
            let url = harness.url("/f.png")
            let first = try await harness.load(url)
            let unchanged = await answers(harness.manager, ImageRequest(url: url))
            #expect(unchanged.count == 1 && unchanged.first?.image === first.image)
            #expect(harness.server.requestCount(for: "/f.png") == 2, "one background revalidation")

            version.withLockedValue { $0 = 2 }
            let changed = await answers(harness.manager, ImageRequest(url: url))
            #expect(changed.count == 2, "the stale image at once, then the changed one")
            #expect(changed.first?.image === first.image && changed.last?.image !== first.image)
            #expect(changed.last?.cacheType == ImageCacheType.none)
        }
    }

    @Test func staleIfErrorAnswersWithTheStaleImageOnA503() async throws {
        try await ManagerTestHarness.run { harness in
            let status = NIOLockedValueBox(200)
            let headers = NIOLockedValueBox([("Cache-Control", "max-age=0, stale-if-error=600")])
            serve(harness, version: NIOLockedValueBox(1), headers: headers, status: status)
            let url = harness.url("/f.png")
            let first = try await harness.load(url)
            status.withLockedValue { $0 = 503 }
            let answer = try await harness.load(url, options: .retryFailed)
            #expect(answer.image === first.image && answer.error == nil)

            // Without stale-if-error the 503 is the answer.
            headers.withLockedValue { $0 = [("Cache-Control", "max-age=0")] }
            status.withLockedValue { $0 = 200 }
            _ = await answers(harness.manager, ImageRequest(url: url, options: [.retryFailed, .refreshCached]))
            status.withLockedValue { $0 = 503 }
            let failed = try await harness.load(url, options: .retryFailed)
            #expect(failed.image == nil && failed.error?.statusCode == 503)
        }
    }

    @Test func freshnessComesFromMaxAgeExpiresAgeAndLastModified() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        func metadata(_ headers: [(String, String)]) -> DiskCacheEntryMetadata {
            DiskCacheEntryMetadata(
                response: DownloadResponseHead(statusCode: 200, headers: .init(headers), url: URL(string: "http://x/a.png")!),
                receivedAt: now
            )
        }
        func date(_ offset: TimeInterval) -> String {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            return formatter.string(from: now.addingTimeInterval(offset))
        }
        #expect(metadata([("Cache-Control", "max-age=60")]).expirationDate == now.addingTimeInterval(60))
        #expect(metadata([("Cache-Control", "max-age=60"), ("Age", "20")]).expirationDate == now.addingTimeInterval(40))
        #expect(metadata([("Date", date(0)), ("Expires", date(300))]).expirationDate == now.addingTimeInterval(300))
        #expect(metadata([("Expires", "0")]).expirationDate == now, "an invalid Expires is already stale")
        // Heuristic: 10 % of the time since Last-Modified, at most a day.
        #expect(metadata([("Date", date(0)), ("Last-Modified", date(-10_000))]).expirationDate == now.addingTimeInterval(1_000))
        #expect(metadata([("Date", date(0)), ("Last-Modified", date(-100 * 86_400))]).expirationDate == now.addingTimeInterval(86_400))
        #expect(metadata([("Cache-Control", "no-cache"), ("Last-Modified", date(-10_000))]).freshness(at: now) == .stale)
        #expect(metadata([]).expirationDate == nil && metadata([]).freshness(at: now) == .fresh)
        let windows = metadata([("Cache-Control", "max-age=10, stale-while-revalidate=30, stale-if-error=100")])
        #expect(windows.freshness(at: now.addingTimeInterval(5)) == .fresh)
        #expect(windows.freshness(at: now.addingTimeInterval(20)) == .staleWhileRevalidate)
        #expect(windows.freshness(at: now.addingTimeInterval(50)) == .stale)
        #expect(windows.mayAnswerAfterError(at: now.addingTimeInterval(50)))
        #expect(!windows.mayAnswerAfterError(at: now.addingTimeInterval(200)))
        #expect(metadata([("Cache-Control", "max-age=10, must-revalidate, stale-if-error=100")]).staleIfError == nil)
    }

    @Test func untilExpiredIgnoresTheServersFreshness() async throws {
        try await ManagerTestHarness.run { harness in
            serve(harness, version: NIOLockedValueBox(1), headers: NIOLockedValueBox([("Cache-Control", "no-cache")]))
            var configuration = ImageCacheConfiguration()
            configuration.cachePolicy = .untilExpired
            let cache = ImageCache(namespace: "until-expired", directory: harness.folder.url, configuration: configuration)
            let manager = ImageManager(cache: cache, loader: harness.downloader)
            let url = harness.url("/f.png")
            _ = try await harness.load(ImageRequest(url: url), with: manager)
            cache.clearMemory()
            _ = try await harness.load(ImageRequest(url: url), with: manager)
            #expect(harness.server.requestCount(for: "/f.png") == 1)
        }
    }
}
