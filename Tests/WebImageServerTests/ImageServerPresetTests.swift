import Foundation
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// Named specs from the configuration, used as `preset=NAME`, and the only-presets mode.
@Suite("ImageServer presets", .serialized, .timeLimit(.minutes(15)))
struct ImageServerPresetTests {
    static let presets = ["thumb": "resize=20x20,fill|format=png", "small": "resize=8", "loop": "preset=thumb"]

    @Test func expandsPresetsInPlace() async throws {
        try await ImageServerHarness.run(configure: { $0.presets = Self.presets }) { harness in
            harness.serve("/a.png", try ImageServerHarness.png())
            let thumb = try await harness.get(harness.path("preset=thumb", source: "/a.png"))
            #expect(thumb.status == 200)
            #expect(try thumb.image().pixelSize == PixelSize(width: 20, height: 20))
            // A preset followed by more operations, and dpr applying to the preset's sizes.
            let more = try await harness.get(harness.path("preset=thumb|crop=10x10", source: "/a.png"))
            #expect(try more.image().pixelSize == PixelSize(width: 10, height: 10))
            let doubled = try await harness.get(harness.path("dpr=2|preset=small", source: "/a.png"))
            #expect(try doubled.image().pixelWidth == 16)
            let unknown = try await harness.get(harness.path("preset=nope", source: "/a.png"))
            #expect(unknown.status == 400)
            #expect(String(decoding: unknown.body, as: UTF8.self).contains("no preset by that name"))
            #expect(try await harness.get(harness.path("preset=loop", source: "/a.png")).status == 400)
        }
    }

    @Test func onlyPresetsRefusesAnythingElse() async throws {
        try await ImageServerHarness.run(configure: {
            $0.presets = Self.presets
            $0.onlyPresets = true
        }) { harness in
            harness.serve("/a.png", try ImageServerHarness.png())
            let thumb = try await harness.get(harness.path("preset=thumb", source: "/a.png"))
            #expect(try thumb.image().pixelSize == PixelSize(width: 20, height: 20))
            let future = Int(Date().timeIntervalSince1970) + 3600
            #expect(try await harness.get(harness.path("preset=small|expires=\(future)", source: "/a.png")).status == 200)
            for other in ["resize=10", "preset=thumb|blur=2", "dpr=2|preset=small"] {
                let answer = try await harness.get(harness.path(other, source: "/a.png"))
                #expect(answer.status == 400, "\(other)")
                #expect(String(decoding: answer.body, as: UTF8.self).contains("only preset"))
            }
        }
    }
}
