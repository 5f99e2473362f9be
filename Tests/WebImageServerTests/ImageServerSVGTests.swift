#if SVG
import Foundation
import Testing
import WebImage
@testable import WebImageServer
import WebImageTestSupport
import WebImageLoadingTestSupport
import WebImageServerTestSupport

/// `webimage serve` with SVG sources: rendered by the coder registry at the requested size,
/// and answered in the format asked for or, without `format=`, in JPEG (the server writes no
/// SVG; passing SVG through is not offered).
@Suite("ImageServer SVG", .serialized, .timeLimit(.minutes(5)))
struct ImageServerSVGTests {
    /// A 1200×600 document: red left half, blue right half.
    static let halves = Data(
        (#"<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="600">"#
            + #"<rect width="600" height="600" fill="red"/><rect x="600" width="600" height="600" fill="blue"/></svg>"#).utf8
    )

    @Test func svgSourceIsRenderedAtTheRequestedWidth() async throws {
        try await ImageServerHarness.run { harness in
            harness.serve("/halves.svg", Self.halves, contentType: "image/svg+xml")
            for spec in ["resize=300|format=png", "resize=300|format=webp,lossless", "resize=300"] {
                let answer = try await harness.get(harness.path(spec, source: "/halves.svg"))
                #expect(answer.status == 200, "\(spec)")
                guard answer.status == 200 else { continue }
                let image = try answer.image()
                #expect(image.format == (spec.contains("format=") ? (spec.contains("webp") ? .webp : .png) : .jpeg), "\(spec)")
                #expect(image.pixelWidth == 300 && image.pixelHeight == 150, "\(spec): \(image.pixelSize)")
                let left = image.bitmap.rgba8(x: 10, y: 75), right = image.bitmap.rgba8(x: 290, y: 75)
                #expect(left.red >= 247 && left.green <= 8 && left.blue <= 8, "\(spec): \(left)")
                #expect(right.red <= 8 && right.green <= 8 && right.blue >= 247, "\(spec): \(right)")
            }
        }
    }
}
#endif
