import Foundation
import LoopbackHTTPServer
import NIOConcurrencyHelpers
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// A load of a URL and options alone (`loadImage(with: URL)`, `image(from:)`) asks the memory
/// before it builds a request: it must answer at once exactly when the same `ImageRequest`
/// would, under every option, setting and cache fact that decides it.
@Suite("ImageManager plain URL loads", .timeLimit(.minutes(15)))
struct ImageManagerPlainURLTests {
    /// How the two callback APIs answered one load: the response each gave before
    /// `loadImage` returned, if any.
    private struct AtOnce {
        var plain: ImageResponse?
        var request: ImageResponse?
    }

    /// Loads `url` with `options` through the URL API and through the equal request, and
    /// waits for both to answer.
    private func load(_ url: URL, options: ImageOptions = [], on manager: ImageManager) async throws -> AtOnce {
        let plain = ImageResponseRecorder()
        let plainAtOnce = answerGivenAtOnce(recordedBy: plain) { manager.loadImage(with: url, options: options, completion: $0) }
        let request = ImageResponseRecorder()
        let requestAtOnce = answerGivenAtOnce(recordedBy: request) { manager.loadImage(with: ImageRequest(url: url, options: options), completion: $0) }
        try await plain.wait(for: 1)
        try await request.wait(for: 1)
        return AtOnce(plain: plainAtOnce, request: requestAtOnce)
    }

    /// Calls `start` with a completion that `recorder` records, and returns the answer that
    /// completion received on this thread before `start` returned, if any. An answer that
    /// a fast load delivers on another thread meanwhile (which a preempted test thread
    /// could otherwise read as given at once) is recorded but not returned.
    private func answerGivenAtOnce(
        recordedBy recorder: ImageResponseRecorder,
        _ start: (@escaping @Sendable (ImageResponse) -> Void) -> Void
    ) -> ImageResponse? {
        let caller = pthread_self()
        let atOnce = NIOLockedValueBox<(inCall: Bool, response: ImageResponse?)>((true, nil))
        start { response in
            atOnce.withLockedValue { state in
                if state.inCall, pthread_equal(pthread_self(), caller) != 0 { state.response = response }
            }
            recorder.record(response)
        }
        return atOnce.withLockedValue { state in
            state.inCall = false
            return state.response
        }
    }

    /// A 2×2 image that is not what the server sends (8×6), so an answer from memory shows.
    private let remembered = Image(bitmap: Bitmap(width: 2, height: 2))

    @Test func aStoredImageAnswersBothAPIsAtOnceWithTheSameImage() async throws {
        try await ManagerTestHarness.run { harness in
            harness.serve("/p.png", try ManagerTestImage.png())
            let url = harness.url("/p.png")
            try await harness.cache.store(remembered, forKey: url.absoluteString, scope: .memory)
            let answers = try await load(url, on: harness.manager)
            #expect(answers.plain?.image === remembered && answers.plain?.cacheType == .memory)
            #expect(answers.request?.image === remembered && answers.plain?.url == url)
            let viaAsync = try await harness.manager.image(from: url)
            #expect(viaAsync.image === remembered && viaAsync.cacheType == .memory)
            #expect(harness.server.requestCount(for: "/p.png") == 0)
        }
    }

    @Test(arguments: [ImageOptions.refreshCached, .fromLoaderOnly])
    func optionsThatSkipTheCacheSkipItForAPlainURL(_ options: ImageOptions) async throws {
        try await ManagerTestHarness.run { harness in
            harness.serve("/p.png", try ManagerTestImage.png())
            let url = harness.url("/p.png")
            try await harness.cache.store(remembered, forKey: url.absoluteString, scope: .memory)
            let answers = try await load(url, options: options, on: harness.manager)
            #expect(answers.plain == nil && answers.request == nil)
            let viaAsync = try await harness.manager.image(from: url, options: options)
            #expect(viaAsync.image?.pixelSize == PixelSize(width: 8, height: 6))
        }
    }

    @Test func aBlacklistedURLIsNotAnsweredFromMemoryUnlessFailuresAreRetried() async throws {
        try await ManagerTestHarness.run { harness in
            let url = harness.url("/missing.png")
            #expect(try await harness.load(url).error?.statusCode == 404)
            try await harness.cache.store(remembered, forKey: url.absoluteString, scope: .memory)
            let refused = try await load(url, on: harness.manager)
            #expect(refused.plain == nil && refused.request == nil)
            let viaAsync = await capturedError { () async throws(ImageError) in try await harness.manager.image(from: url) }
            #expect(viaAsync?.code == .blacklisted)
            let retried = try await load(url, options: .retryFailed, on: harness.manager)
            #expect(retried.plain?.image === remembered && retried.request?.image === remembered)
        }
    }

    @Test func aManagerTransformerKeysThePlainURLLoad() async throws {
        try await ManagerTestHarness.run { harness in
            harness.serve("/p.png", try ManagerTestImage.png())
            let url = harness.url("/p.png")
            let halve = ResizingImageTransformer(size: PixelSize(width: 4, height: 3))
            harness.manager.transformer = halve
            // The untransformed image under the URL's own key must not answer.
            try await harness.cache.store(remembered, forKey: url.absoluteString, scope: .memory)
            let transformed = try await load(url, on: harness.manager)
            #expect(transformed.plain == nil && transformed.request == nil)
            let viaAsync = try await harness.manager.image(from: url)
            #expect(viaAsync.image?.pixelSize == PixelSize(width: 4, height: 3))
            // The transformed image, now in memory under the transformed key, answers both.
            let again = try await load(url, on: harness.manager)
            #expect(again.plain?.image?.pixelSize == PixelSize(width: 4, height: 3) && again.request?.cacheType == .memory)
        }
    }

    @Test func aManagerCacheKeyFilterKeysThePlainURLLoad() async throws {
        try await ManagerTestHarness.run { harness in
            harness.serve("/p.png", try ManagerTestImage.png())
            let url = harness.url("/p.png")
            harness.manager.cacheKeyFilter = { _ in "filtered" }
            try await harness.cache.store(remembered, forKey: "filtered", scope: .memory)
            let answers = try await load(url, on: harness.manager)
            #expect(answers.plain?.image === remembered && answers.request?.image === remembered)
            #expect(harness.server.requestCount(for: "/p.png") == 0)
        }
    }

    @Test func aStaleEntryWaitsForRevalidationUnderTheHTTPPolicy() async throws {
        try await ManagerTestHarness.run { harness in
            harness.serve("/p.png", try ManagerTestImage.png())
            let url = harness.url("/p.png")
            let stale = DiskCacheEntryMetadata(expirationDate: Date(timeIntervalSinceNow: -60))
            try await harness.cache.store(remembered, forKey: url.absoluteString, scope: .memory, metadata: stale)
            let answers = try await load(url, on: harness.manager)
            #expect(answers.plain == nil && answers.request == nil)
            #expect(harness.server.requestCount(for: "/p.png") >= 1)
        }
    }
}
