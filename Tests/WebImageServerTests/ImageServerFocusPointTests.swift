import Foundation
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// `gravity=fp:X:Y` keeps the focus point as central as the edges allow, for crop and fill.
@Suite("ImageServer focus point", .serialized, .timeLimit(.minutes(15)))
struct ImageServerFocusPointTests {
    /// A 200×100 PNG: red left half, blue right half, with a green 20×20 square centred at
    /// (130, 30).
    static func halves() throws -> Data {
        var pixels = [UInt8]()
        for y in 0..<100 {
            for x in 0..<200 {
                let green = (120..<140).contains(x) && (20..<40).contains(y)
                pixels += green ? [0, 255, 0, 255] : x < 100 ? [255, 0, 0, 255] : [0, 0, 255, 255]
            }
        }
        return try ImageCodersManager.shared.encode(Image(bitmap: Bitmap(width: 200, height: 100, pixels: pixels)), as: .png)
    }

    @Test func cropCentresOnTheFocusPoint() async throws {
        try await ImageServerHarness.run { harness in
            harness.serve("/h.png", try Self.halves())
            // Centred on the green square: (130, 30) is 0.65, 0.3 of the picture.
            let focused = try await harness.get(harness.path("crop=20x20,fp:0.65:0.3|format=png", source: "/h.png"))
            #expect(focused.status == 200)
            let bitmap = try focused.image().bitmap
            #expect(bitmap.size == PixelSize(width: 20, height: 20))
            #expect(bitmap.rgba8(x: 0, y: 0) == RGBA8(red: 0, green: 255, blue: 0))
            #expect(bitmap.rgba8(x: 19, y: 19) == RGBA8(red: 0, green: 255, blue: 0))
            // A point near the edge: the window is moved inside the picture.
            let edge = try await harness.get(harness.path("crop=50x50,gravity=fp:1:1|format=png", source: "/h.png"))
            let corner = try edge.image().bitmap
            #expect(corner.size == PixelSize(width: 50, height: 50))
            #expect(corner.rgba8(x: 49, y: 49) == RGBA8(red: 0, green: 0, blue: 255))
            #expect(corner.rgba8(x: 0, y: 0) == RGBA8(red: 0, green: 0, blue: 255))
        }
    }

    @Test func fillKeepsTheFocusPoint() async throws {
        try await ImageServerHarness.run { harness in
            harness.serve("/h.png", try Self.halves())
            // 200×100 scaled to 100×50 to cover 50×50: the centre shows both halves…
            let centre = try await harness.get(harness.path("resize=50x50,fill|format=png", source: "/h.png")).image().bitmap
            #expect(centre.rgba8(x: 2, y: 25).red > 200 && centre.rgba8(x: 47, y: 25).blue > 200)
            // …a focus point at the left keeps only red, at the right only blue.
            let left = try await harness.get(harness.path("resize=50x50,fill,gravity=fp:0:0.5|format=png", source: "/h.png"))
            #expect(left.status == 200)
            let leftBitmap = try left.image().bitmap
            #expect(leftBitmap.size == PixelSize(width: 50, height: 50))
            #expect(leftBitmap.rgba8(x: 47, y: 25).red > 200)
            let right = try await harness.get(harness.path("resize=50x50,fill,gravity=fp:0.95:0.5|format=png", source: "/h.png")).image().bitmap
            #expect(right.rgba8(x: 2, y: 25).blue > 200)
        }
    }

    @Test func refusesBadFocusPoints() async throws {
        try await ImageServerHarness.run { harness in
            harness.serve("/h.png", try Self.halves())
            for bad in ["crop=10x10,fp:2:0", "crop=10x10,fp:0.5", "crop=10x10,fp:a:b", "resize=10x10,gravity=fp:0.5:0.5", "crop=10x10,top,gravity=fp:0:0"] {
                let answer = try await harness.get(harness.path(bad, source: "/h.png"))
                #expect(answer.status == 400, "\(bad)")
            }
        }
    }
}
