#if SVG
import Foundation
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// An SVG source with no decode worker configured (an app embedding the server library):
/// answered 415, never rendered in process. Rendering through a worker is tested in
/// WebImageCLITests' `DecodeWorkerSVGTests`, which run the built tool.
@Suite("ImageServer SVG", .serialized, .timeLimit(.minutes(5)))
struct ImageServerSVGTests {
    @Test func svgSourceWithoutADecodeWorkerAnswers415() async throws {
        try await ImageServerHarness.run { harness in
            harness.serve("/a.svg", Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>"#.utf8), contentType: "image/svg+xml")
            let image = try await harness.get(harness.path("resize=4|format=png", source: "/a.svg"))
            let info = try await harness.get("/info/_/" + ImageServerHarness.encodeSource(harness.sources.url(for: "/a.svg").absoluteString))
            for answer in [image, info] {
                #expect(answer.status == 415)
                #expect(String(decoding: answer.body, as: UTF8.self).contains("source format needs a decode worker"))
            }
        }
    }
}
#endif
