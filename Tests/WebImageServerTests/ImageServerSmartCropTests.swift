import Foundation
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// `resize=…,fill,smart` and `crop=…,smart` through the running server keep an
/// off-centre subject the centre would cut.
@Suite("ImageServer smart crop", .serialized, .timeLimit(.minutes(15)))
struct ImageServerSmartCropTests {
    static let skin = RGBA8(red: 224, green: 172, blue: 140)

    /// A 300×200 PNG: a flat field with a skin-coloured disc of radius 25 at (270, 40).
    static func disc() throws -> Data {
        var pixels = [UInt8]()
        for row in 0..<200 {
            for column in 0..<300 {
                let inside = (column - 270) * (column - 270) + (row - 40) * (row - 40) <= 25 * 25
                pixels += inside ? [224, 172, 140, 255] : [96, 110, 128, 255]
            }
        }
        return try ImageCodersManager.shared.encode(Image(bitmap: Bitmap(width: 300, height: 200, pixels: pixels)), as: .png)
    }

    @Test func smartFillKeepsTheSubject() async throws {
        try await ImageServerHarness.run { harness in
            harness.serve("/d.png", try Self.disc())
            // 300×200 covers 100×100 at 150×100; the disc's centre lands at (135, 20).
            let smart = try await harness.get(harness.path("resize=100x100,fill,smart|format=png", source: "/d.png"))
            #expect(smart.status == 200)
            let bitmap = try smart.image().bitmap
            #expect(bitmap.size == PixelSize(width: 100, height: 100))
            #expect(bitmap.rgba8(x: 85, y: 20) == Self.skin, "the disc is in the smart window")
            let centre = try await harness.get(harness.path("resize=100x100,fill|format=png", source: "/d.png")).image().bitmap
            #expect(centre.rgba8(x: 90, y: 20) != Self.skin, "the centre window (x 25 to 125 of 150) cuts it")
        }
    }

    @Test func smartCropKeepsTheSubject() async throws {
        try await ImageServerHarness.run { harness in
            harness.serve("/d.png", try Self.disc())
            for spec in ["crop=80x80,smart|format=png", "crop=80x80,smart=attention|format=png"] {
                let answer = try await harness.get(harness.path(spec, source: "/d.png"))
                #expect(answer.status == 200)
                let bitmap = try answer.image().bitmap
                #expect(bitmap.size == PixelSize(width: 80, height: 80))
                let skinPixels = (0..<80).flatMap { y in (0..<80).map { x in bitmap.rgba8(x: x, y: y) } }.filter { $0 == Self.skin }.count
                #expect(skinPixels > 1_800, "most of the disc (about 1,960 pixels) is kept: \(skinPixels)")
            }
            #expect(try await harness.get(harness.path("crop=80x80,smart=faces", source: "/d.png")).status == 400)
        }
    }
}
