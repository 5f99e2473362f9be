import Foundation
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// Ultra HDR through the server: resizes, crops, quarter turns and flips answer JPEGs that
/// still carry MPF, the gain map's metadata and a map of the primary's shape (also where a
/// lossless turn would otherwise drop it); `gainmap=drop` and other formats drop it;
/// `/info` reports it.
@Suite("ImageServer Ultra HDR", .serialized, Corpus.required, .timeLimit(.minutes(20)))
struct ImageServerUltraHDRTests {
    @Test func geometricStepsAnswerUltraHDRJPEGs() async throws {
        let source = try Corpus.data("ultrahdr-samples/sharp/gain-map.jpg")
        try await ImageServerHarness.run { harness in
            harness.serve("/hdr.jpg", source, contentType: "image/jpeg")
            for spec in ["resize=320", "crop=640x480", "rotate=90", "flip=h", "resize=32|format=jpeg"] {
                let answer = try await harness.get(harness.path(spec, source: "/hdr.jpg"))
                try #require(answer.status == 200, "\(spec)")
                let body = Data(answer.body)
                let container = try #require(UltraHDRContainer(body), "\(spec): no MPF")
                try #require(container.entries.count == 2)
                #expect(container.primaryXMP.contains { $0.contains("hdrgm:Version") }, "\(spec)")
                let image = try ImageCodersManager.shared.decode(body, options: ImageDecodeOptions())
                let map = try #require(image.gainMap, "\(spec)")
                // sharp's map is a quarter of the primary.
                #expect(abs(map.pixelSize.width * 4 - image.pixelWidth) <= 8, "\(spec): \(map.pixelSize) for \(image.pixelSize)")
                #expect(abs(map.pixelSize.height * 4 - image.pixelHeight) <= 8, "\(spec): \(map.pixelSize) for \(image.pixelSize)")
            }
            for spec in ["resize=320|format=jpeg,gainmap=drop", "resize=320|format=png"] {
                let answer = try await harness.get(harness.path(spec, source: "/hdr.jpg"))
                try #require(answer.status == 200, "\(spec)")
                #expect(UltraHDRContainer(Data(answer.body)) == nil, "\(spec)")
            }
        }
    }

    @Test func infoReportsTheGainMap() async throws {
        let source = try Corpus.data("ultrahdr-samples/hdr-canvas/red-ultrahdr.jpeg")
        try await ImageServerHarness.run { harness in
            harness.serve("/hdr.jpg", source, contentType: "image/jpeg")
            let path = "/info/_/\(ImageServerHarness.encodeSource(harness.sources.url(for: "/hdr.jpg").absoluteString))"
            let answer = try await harness.get(path)
            try #require(answer.status == 200)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
            let gainMap = try #require(json["gain_map"] as? [String: Any])
            #expect(gainMap["width"] as? Int == 200)
            #expect(gainMap["height"] as? Int == 100)
            #expect(gainMap["channels"] as? Int == 3)
            #expect(((gainMap["headroom"] as? Double) ?? 0) > 2)
        }
    }
}
