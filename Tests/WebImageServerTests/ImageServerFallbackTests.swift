import Foundation
import Logging
import NIOConcurrencyHelpers
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// A fallback image answers, through the request's own spec, for a source that fails — and
/// never for a refusal of the request itself; the failure is still logged and counted.
@Suite("ImageServer fallback images", .serialized, .timeLimit(.minutes(15)))
struct ImageServerFallbackTests {
    /// An opaque image of one colour, `red` in its red channel, as PNG bytes.
    static func solid(width: Int, height: Int, red: UInt8) throws -> Data {
        let pixels = (0..<width * height).flatMap { _ -> [UInt8] in [red, 0, 0, 255] }
        return try ImageCodersManager.shared.encode(Image(bitmap: Bitmap(width: width, height: height, pixels: pixels)), as: .png)
    }

    /// The red channel of the centre pixel of `image`.
    static func centreRed(of image: Image) -> UInt8 {
        let bitmap = image.bitmap
        return bitmap.pixels[((bitmap.height / 2) * bitmap.width + bitmap.width / 2) * 4]
    }

    @Test func aFailingSourceUnderAPresetAnswersThePresetsFallbackAtThePresetsSize() async throws {
        let thumb = try ImageServerFallback(data: Self.solid(width: 90, height: 40, red: 250))
        let server = try ImageServerFallback(data: Self.solid(width: 20, height: 20, red: 100), status: 404, maxAge: 5)
        try await ImageServerHarness.run(configure: {
            $0.presets = ["thumb": "resize=30x30,fill|format=png"]
            $0.presetFallbacks = ["thumb": thumb]
            $0.fallback = server
        }) { harness in
            harness.serve("/text", Data("not an image".utf8), contentType: "image/png")
            for source in ["/missing.png", "/text"] {
                let answer = try await harness.get(harness.path("preset=thumb", source: source))
                #expect(answer.status == 200, "\(source)")
                #expect(answer.headers.first(name: "Cache-Control") == "public, max-age=60", "\(source)")
                #expect(answer.headers.first(name: "Content-Type") == "image/png")
                let image = try answer.image()
                #expect(image.pixelSize == PixelSize(width: 30, height: 30), "\(source)")
                #expect(Self.centreRed(of: image) == 250, "the preset's fallback, not the server's")
            }
            // Without the preset, the server's own fallback, with its status and max-age.
            let plain = try await harness.get(harness.path("resize=10x12,fill|format=png", source: "/missing.png"))
            #expect(plain.status == 404)
            #expect(plain.headers.first(name: "Cache-Control") == "public, max-age=5")
            let image = try plain.image()
            #expect(image.pixelSize == PixelSize(width: 10, height: 12))
            #expect(Self.centreRed(of: image) == 100)
            let metrics = try await harness.metrics()
            #expect(metrics.contains("webimage_fallbacks_total{failure=\"404\"} 2"), "\(metrics)")
            #expect(metrics.contains("webimage_fallbacks_total{failure=\"422\"} 1"), "\(metrics)")
            // The two failing sources under the preset share one fallback result.
            #expect(metrics.contains("webimage_result_cache_total{result=\"hit\"} 1"), "\(metrics)")
        }
    }

    @Test func aRefusedAddressIsAnsweredTheFallbackAndTheFailureIsLogged() async throws {
        let log = NIOLockedValueBox<[MetadataRecordingLogHandler.Entry]>([])
        let fallback = try ImageServerFallback(data: Self.solid(width: 20, height: 20, red: 100))
        try await ImageServerHarness.run(configure: {
            // The sources are on loopback, which the address policy now refuses.
            $0.allowsPrivateSources = false
            $0.fallback = fallback
            $0.logLevel = .info
            $0.makeLogHandler = { _ in MetadataRecordingLogHandler(log: log) }
        }) { harness in
            harness.serve("/a.png", try ImageServerHarness.png())
            let answer = try await harness.get(harness.path("resize=16x16,fill|format=png", source: "/a.png"))
            #expect(answer.status == 200)
            #expect(try answer.image().pixelSize == PixelSize(width: 16, height: 16))
            #expect(harness.sources.requestCount(for: "/a.png") == 0)
            let line = try #require(log.withLockedValue { $0.last { $0.message == "request" } })
            #expect(line.metadata["status"] == "200")
            #expect(line.metadata["error"] == "address not allowed")
            #expect(try await harness.metrics().contains("webimage_fallbacks_total{failure=\"403\"} 1"))
        }
    }

    @Test func aBadSignatureOrABadSpecIsNeverAnsweredTheFallback() async throws {
        let key: [UInt8] = Array("secret key".utf8)
        let fallback = try ImageServerFallback(data: Self.solid(width: 20, height: 20, red: 100))
        try await ImageServerHarness.run(configure: {
            $0.allowsUnsignedURLs = false
            $0.signingKey = key
            $0.presets = ["thumb": "resize=30x30,fill"]
            $0.presetFallbacks = ["thumb": fallback]
            $0.fallback = fallback
        }) { harness in
            let signedPath = String(harness.path("preset=thumb", source: "/missing.png").dropFirst(2))
            let signature = ImageURLSigner(key: key).signature(for: signedPath)
            #expect(try await harness.get("/\(signature)\(signedPath)").status == 200, "a good signature is answered the fallback")
            let forged = try await harness.get("/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\(signedPath)")
            #expect(forged.status == 403)
            #expect(forged.headers.first(name: "Content-Type") == "application/json")
            #expect(String(decoding: forged.body, as: UTF8.self).contains("the signature does not match"))
            let badSpecPath = String(harness.path("resize=lots", source: "/missing.png").dropFirst(2))
            let badSpec = try await harness.get("/\(ImageURLSigner(key: key).signature(for: badSpecPath))\(badSpecPath)")
            #expect(badSpec.status == 400)
            #expect(badSpec.headers.first(name: "Content-Type") == "application/json")
            #expect(!(try await harness.metrics()).contains("failure=\"403\""))
        }
    }

    @Test func aFallbackNeedsAnAnswerableStatusAndAConfiguredPreset() throws {
        let fallback = try ImageServerFallback(data: Self.solid(width: 4, height: 4, red: 1))
        var configuration = ImageServerConfiguration(cacheDirectory: FileManager.default.temporaryDirectory)
        configuration.allowsUnsignedURLs = true
        configuration.fallback = fallback
        try configuration.validate()
        configuration.fallback?.status = 302
        #expect(throws: ImageServerConfigurationError.badFallbackStatus(302)) { try configuration.validate() }
        configuration.fallback = fallback
        configuration.presetFallbacks = ["thumb": fallback]
        #expect(throws: ImageServerConfigurationError.fallbackForUnknownPreset("thumb")) { try configuration.validate() }
        #expect(throws: ImageError.self) { try ImageServerFallback(data: Data("not an image".utf8)) }
    }
}
