import Foundation
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// `format=best` writes the result in every candidate the client accepts — the operator's
/// list (WebP and AVIF by default) and JPEG, or PNG for a picture with alpha — and answers
/// the smallest.
@Suite("ImageServer format=best", .serialized, .timeLimit(.minutes(15)))
struct ImageServerBestFormatTests {
    static let accept = [("Accept", "image/avif,image/webp,image/*;q=0.8")]

    /// An opaque graphic of three flat colours: a blue band and a red disc on white.
    static func flatGraphic() throws -> Data {
        var pixels = [UInt8](repeating: 0, count: 300 * 200 * 4)
        for y in 0..<200 {
            for x in 0..<300 {
                let colour: [UInt8] =
                    (x - 150) * (x - 150) + (y - 100) * (y - 100) < 3600 ? [220, 40, 40] : x < 100 ? [30, 90, 200] : [250, 250, 250]
                pixels.replaceSubrange(((y * 300 + x) * 4)..<((y * 300 + x) * 4 + 4), with: colour + [255])
            }
        }
        return try ImageCodersManager.shared.encode(Image(bitmap: Bitmap(width: 300, height: 200, pixels: pixels)), as: .png)
    }

    @Test(Corpus.required)
    func aPhotographAndAFlatGraphicPickDifferentFormatsEachTheSmallest() async throws {
        guard ImageCodersManager.shared.canEncode(to: .avif) else { return }
        let photo = try Data(contentsOf: Corpus.url("image-png-benches/kodim23.png"))
        try await ImageServerHarness.run { harness in
            harness.serve("/photo.png", photo)
            harness.serve("/flat.png", try Self.flatGraphic())
            var chosen: [ImageFormat] = []
            for source in ["/photo.png", "/flat.png"] {
                let best = try await harness.get(harness.path("resize=300|format=best", source: source), headers: Self.accept)
                #expect(best.status == 200)
                #expect(best.headers.first(name: "Vary") == "Accept")
                var sizes: [ImageFormat: Int] = [:]
                for format in [ImageFormat.webp, .avif, .jpeg] {
                    let single = try await harness.get(harness.path("resize=300|format=\(format.rawValue)", source: source))
                    sizes[format] = single.body.count
                }
                let format = ImageFormat(sniffing: best.body)
                #expect(best.body.count == sizes.values.min(), "\(source): \(format) of \(best.body.count) bytes among \(sizes)")
                #expect(best.headers.first(name: "Content-Type") == format.mimeType)
                #expect(try best.image().pixelWidth == 300)
                chosen.append(format)
            }
            #expect(chosen[0] != chosen[1], "\(chosen)")
        }
    }

    @Test func onlyWhatTheClientAcceptsIsTriedAndTheChoiceIsPartOfTheKey() async throws {
        try await ImageServerHarness.run { harness in
            harness.serve("/flat.png", try Self.flatGraphic())
            let path = harness.path("resize=300|format=best", source: "/flat.png")
            // No Accept: JPEG, the format that suits an opaque picture, alone.
            let plain = try await harness.get(path)
            #expect(ImageFormat(sniffing: plain.body) == .jpeg)
            #expect(plain.headers.first(name: "Vary") == "Accept")
            // Accepting WebP alone: the smaller of WebP and JPEG, kept apart from the JPEG answer.
            let webp = try await harness.get(path, headers: [("Accept", "image/webp")])
            #expect(ImageFormat(sniffing: webp.body) == .webp, "a flat graphic is smaller as WebP than as JPEG")
            let metrics = try await harness.metrics()
            #expect(metrics.contains("webimage_result_cache_total{result=\"miss\"} 2"), "\(metrics)")
        }
        // A picture with alpha: PNG beside the operator's list, here WebP alone.
        try await ImageServerHarness.run(configure: { $0.bestFormats = [.webp] }) { harness in
            var pixels = [UInt8](repeating: 0, count: 64 * 64 * 4)
            for index in stride(from: 0, to: pixels.count, by: 4) where index % 512 < 256 { pixels[index + 3] = 255 }
            harness.serve("/alpha.png", try ImageCodersManager.shared.encode(Image(bitmap: Bitmap(width: 64, height: 64, pixels: pixels)), as: .png))
            let answer = try await harness.get(harness.path("format=best", source: "/alpha.png"), headers: [("Accept", "image/avif,image/webp")])
            let png = try await harness.get(harness.path("format=png", source: "/alpha.png"))
            let webp = try await harness.get(harness.path("format=webp", source: "/alpha.png"))
            #expect([ImageFormat.png, .webp].contains(ImageFormat(sniffing: answer.body)), "AVIF is not on the list")
            #expect(answer.body.count == min(png.body.count, webp.body.count))
        }
    }
}
