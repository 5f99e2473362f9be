import Foundation
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// `/info/<signature>/<source>`: a source's metadata as JSON, signed and fetched under the
/// same rules as images.
@Suite("ImageServer info", .serialized, .timeLimit(.minutes(15)))
struct ImageServerInfoTests {
    static func json(_ answer: ImageServerClient.Answer) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
    }

    func infoPath(_ harness: ImageServerHarness, source path: String, signature: String = "_") -> String {
        "/info/\(signature)/\(ImageServerHarness.encodeSource(harness.sources.url(for: path).absoluteString))"
    }

    @Test func aReplayedInfoURLIsAnsweredWithoutReadingTheSourceAgain() async throws {
        try await ImageServerHarness.run { harness in
            harness.serve("/k.png", try ManagerTestImage.noisePNG(width: 40, height: 30))
            let path = infoPath(harness, source: "/k.png")
            let first = try await harness.get(path)
            #expect(first.status == 200)
            // The source's cached bytes are gone and the source now differs: a replay that
            // read the source again would fetch and describe the new one.
            await harness.server.sources.clearDisk()
            harness.serve("/k.png", try ManagerTestImage.noisePNG(width: 20, height: 10))
            let replays = try await withThrowingTaskGroup(of: ImageServerClient.Answer.self) { group in
                for _ in 0..<4 { group.addTask { try await harness.get(path) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for replay in replays {
                #expect(replay.status == 200)
                #expect(replay.body == first.body)
            }
            #expect(try Self.json(first)["width"] as? Int == 40)
            #expect(harness.sources.requestCount(for: "/k.png") == 1, "the source was fetched once")
        }
    }

    @Test func describesAStillAndAnAnimation() async throws {
        var pixels = [UInt8]()
        for _ in 0..<(40 * 30) { pixels += [200, 100, 50, 255] }
        let still = try ImageCodersManager.shared.encode(Image(bitmap: Bitmap(width: 40, height: 30, pixels: pixels)), as: .png)
        let frames = (0..<3).map { ImageFrame(bitmap: ManagerTestImage.bitmap(width: 8, height: 6, tint: UInt8($0 * 40)), duration: 0.1) }
        let gif = try ImageCodersManager.shared.encode(Image(frames: frames, loopCount: 0), as: .gif)
        try await ImageServerHarness.run { harness in
            harness.serve("/s.png", still)
            harness.serve("/a.gif", gif, contentType: "image/gif")
            let answer = try await harness.get(infoPath(harness, source: "/s.png"))
            #expect(answer.status == 200)
            #expect(answer.headers.first(name: "Content-Type") == "application/json")
            let info = try Self.json(answer)
            #expect(info["format"] as? String == "png")
            #expect(info["width"] as? Int == 40 && info["height"] as? Int == 30)
            #expect(info["frames"] as? Int == 1 && info["orientation"] as? Int == 1)
            #expect(info["dominant_colour"] as? String == "#c86432")
            // The placeholders of the reduced decode: a flat 4:3 picture of that colour.
            let thumbHash = try ThumbHash(base64: try #require(info["thumbhash"] as? String))
            #expect(thumbHash.aspectRatio == 7.0 / 5)
            let thumbColour = thumbHash.averageColor
            #expect(abs(Int(thumbColour.red) - 200) <= 4 && abs(Int(thumbColour.green) - 100) <= 4 && abs(Int(thumbColour.blue) - 50) <= 4)
            let blurHash = try BlurHash(try #require(info["blurhash"] as? String))
            #expect(blurHash.components == (4, 3))
            #expect(blurHash.averageColor == RGBA8(red: 200, green: 100, blue: 50))
            let animation = try Self.json(try await harness.get(infoPath(harness, source: "/a.gif")))
            #expect(animation["format"] as? String == "gif")
            #expect(animation["frames"] as? Int == 3)
            #expect(abs((animation["duration"] as? Double ?? 0) - 0.3) < 0.01)
        }
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpora"))
    func reportsTheExifOrientation() async throws {
        let jpeg = try Data(contentsOf: Corpus.url("exif-orientation-examples/Landscape_6.jpg"))
        try await ImageServerHarness.run { harness in
            harness.serve("/o.jpg", jpeg, contentType: "image/jpeg")
            let info = try Self.json(try await harness.get(infoPath(harness, source: "/o.jpg")))
            #expect(info["format"] as? String == "jpeg")
            #expect(info["orientation"] as? Int == 6)
            #expect(info["width"] as? Int == 1200 && info["height"] as? Int == 1800, "the header's size, before turning")
        }
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpora"))
    func namesTheEmbeddedColourProfile() async throws {
        let jpeg = try Data(contentsOf: Corpus.url("sdwebimage/TestICCProfile.jpg"))
        try await ImageServerHarness.run { harness in
            harness.serve("/p.jpg", jpeg, contentType: "image/jpeg")
            harness.serve("/s.png", try ImageServerHarness.png())
            let info = try Self.json(try await harness.get(infoPath(harness, source: "/p.jpg")))
            #if ColorManagement
            #expect(info["colour_profile"] as? String == "Test profile to check both workflows")
            #endif
            let plain = try Self.json(try await harness.get(infoPath(harness, source: "/s.png")))
            #expect(plain["colour_profile"] is NSNull, "no profile: null")
        }
    }

    @Test func isSignedAndCheckedLikeImages() async throws {
        let key: [UInt8] = Array("secret key".utf8)
        let signer = ImageURLSigner(key: key)
        try await ImageServerHarness.run(configure: {
            $0.allowsUnsignedURLs = false
            $0.signingKey = key
        }) { harness in
            harness.serve("/a.png", try ImageServerHarness.png())
            let source = ImageServerHarness.encodeSource(harness.sources.url(for: "/a.png").absoluteString)
            #expect(try await harness.get("/info/_/\(source)").status == 403)
            // An image URL's kind of signature (over `/<source>`) does not open /info.
            #expect(try await harness.get("/info/\(signer.signature(for: "/\(source)"))/\(source)").status == 403)
            let signed = try await harness.get("/info/\(signer.signature(for: "/info/\(source)"))/\(source)")
            #expect(signed.status == 200)
            #expect(try Self.json(signed)["width"] as? Int == 64)
            #expect(try await harness.get("/info/\(signer.signature(for: "/info/x"))/x").status == 400)
        }
        try await ImageServerHarness.run(configure: { $0.allowsPrivateSources = false }) { harness in
            harness.serve("/a.png", try ImageServerHarness.png())
            #expect(try await harness.get(infoPath(harness, source: "/a.png")).status == 403)
            #expect(harness.sources.requests.isEmpty)
        }
        try await ImageServerHarness.run { harness async throws in
            harness.serve("/n.png", Data("not an image".utf8))
            #expect(try await harness.get(infoPath(harness, source: "/n.png")).status == 422)
            #expect(try await harness.get("/info/_").status == 400)
        }
    }
}
