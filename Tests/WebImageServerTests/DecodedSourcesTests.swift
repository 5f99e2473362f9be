import LoopbackHTTPServer
import Testing
import WebImage

@testable import WebImageServer

/// The tier's choice of decode size, without a server: which size a request is asked to
/// decode, given the requests under way for its source.
@Suite("Decoded sources' decode size")
struct DecodedSourcesTests {
    /// Options that fit a source inside `width` × `width`.
    static func fitting(_ width: Int) -> ImageDecodeOptions {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: width, height: width)
        return options
    }

    /// The box the ticket of a request for `asked` is decoded to, `headroom` times its own
    /// (`nil`: full size, no box), while requests asking `underWay` (at least one) wait
    /// inside `interested(in:asking:_:)` for the same source.
    static func decodedBox(
        asked: ImageDecodeOptions, underWay: [ImageDecodeOptions], headroom: Int? = DecodedSources.headroom
    ) async throws -> PixelSize? {
        let tier = DecodedSources(capacity: 1 << 30, lifetime: .seconds(600), metrics: ImageServerMetrics())
        let gate = LoopbackGate()
        let entered = AsyncStream<Void>.makeStream()
        let waiting = underWay.map { options in
            Task {
                try await tier.interested(in: "source", asking: options) { () throws(ImageServerError) in
                    entered.continuation.yield()
                    await gate.wait()
                }
            }
        }
        var count = 0
        for await _ in entered.stream {
            count += 1
            if count == underWay.count { break }
        }
        let lookup = try await tier.interested(in: "source", asking: asked) { () throws(ImageServerError) in
            try await tier.lookUp(source: "source", options: asked, headroom: headroom)
        }
        gate.open()
        for task in waiting { try await task.value }
        guard case .decode(let ticket) = lookup else {
            Issue.record("the tier gave no ticket to decode: \(lookup)")
            return nil
        }
        tier.abandon(ticket)
        return ticket.options.thumbnailPixelSize
    }

    @Test func aSourceAskedForAtOnceIsDecodedForTheLargestSizeUnderWay() async throws {
        let box = try await Self.decodedBox(asked: Self.fitting(320), underWay: [Self.fitting(1280), Self.fitting(640), Self.fitting(960)])
        #expect(box == PixelSize(width: 1280, height: 1280), "one decode serves the four sizes")
    }

    @Test func smallerSizesUnderWayLeaveTheHeadroom() async throws {
        let box = try await Self.decodedBox(asked: Self.fitting(640), underWay: [Self.fitting(320)])
        #expect(box == PixelSize(width: 640 * DecodedSources.headroom, height: 640 * DecodedSources.headroom))
    }

    @Test func theHeadroomGivenSizesTheDecodeAndNoneMakesItFullSize() async throws {
        let webP = try await Self.decodedBox(asked: Self.fitting(320), underWay: [Self.fitting(160)], headroom: DecodedSources.stillWebPHeadroom)
        #expect(webP == PixelSize(width: 1280, height: 1280), "a still WebP's first decode serves four times its size")
        let full = try await Self.decodedBox(asked: Self.fitting(320), underWay: [Self.fitting(640)], headroom: nil)
        #expect(full == nil, "a coder that reads every pixel decodes at full size")
    }

    @Test func aRequestOfAnotherShapeDoesNotWidenTheDecode() async throws {
        var covering = Self.fitting(2000)
        covering.coversThumbnailBox = true
        var limited = Self.fitting(3000)
        limited.scaleDownLimitBytes = 1 << 20
        let box = try await Self.decodedBox(asked: Self.fitting(300), underWay: [covering, limited])
        #expect(box == PixelSize(width: 600, height: 600), "neither a covering decode nor a byte-limited one is merged")
    }
}
