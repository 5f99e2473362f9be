import Foundation
import Testing
import WebImage
import WebImageLoadingTestSupport
@testable import WebImageServer
import WebImageServerTestSupport
import WebImageTestSupport

/// Encodes that would outlive their request: `format=best` starts no candidate once the
/// request's deadline has passed, and an AVIF encode that cannot end before it is refused
/// up front, with the deadline's status.
@Suite("ImageServer bounded encodes", .serialized, .timeLimit(.minutes(15)))
struct ImageServerBoundedEncodeTests {
    static let accept = [("Accept", "image/avif,image/webp,image/*;q=0.8")]

    /// The encodes `/metrics` counts, over every format.
    static func encodes(in metrics: String) -> Int {
        metrics.split(separator: "\n").filter { $0.hasPrefix("webimage_encodes_total{") }
            .compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }
            .reduce(0, +)
    }

    @Test func aBestRequestPastItsDeadlineStartsNoFurtherCandidate() async throws {
        // A 2000×2000 fallback, rendered from memory: no fetch and no decode stand between
        // the request and its candidates (WebP, AVIF, JPEG), whose encodes take seconds
        // together, far past the 0.2 s deadline however fast the machine.
        let fallback = try ImageServerFallback(data: try ImageServerHarness.png(width: 2000, height: 2000))
        try await ImageServerHarness.run(configure: {
            $0.requestTimeout = 0.2
            $0.fallback = fallback
        }) { harness in
            let answer = try await harness.get(harness.path("format=best", source: "/missing.png"), headers: Self.accept)
            #expect(answer.status == 504)
            // The work goes on after the answer until its next step, where it stops, and
            // is counted stopped then: all it started is counted by now.
            #expect(try await harness.eventuallyShows("webimage_work_stopped_total 1"))
            let encodes = Self.encodes(in: try await harness.metrics())
            #expect(encodes <= 1, "\(encodes) encodes started; the first candidate at most was under way at the deadline")
        }
    }

    @Test func anAVIFEncodeThatCannotEndInTimeIsRefusedBeforeTheDecode() async throws {
        guard ImageCodersManager.shared.canEncode(to: .avif) else { return }
        // 60000×60000 declared (a header alone): planned at about 1,620 s of libaom, over
        // twice the 600 s deadline, which the fetch and header of a few bytes are far within
        // even under ThreadSanitizer with every suite running at once.
        let side: UInt32 = 60_000
        var png = TestImages.pngHeader(width: side, height: side)
        png.append(contentsOf: withUnsafeBytes(of: Self.crc32(png[12...]).bigEndian, Array.init))
        png.append(contentsOf: [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82])
        try await ImageServerHarness.run(configure: {
            $0.requestTimeout = 600
            $0.maxSourcePixels = Int(side) * Int(side)
        }) { harness in
            harness.serve("/large.png", png)
            let answer = try await harness.get(harness.path("format=avif", source: "/large.png"))
            #expect(answer.status == 504)
            #expect(String(decoding: answer.body, as: UTF8.self).contains("the AVIF encode would outlast the request's deadline"))
            #expect(Self.encodes(in: try await harness.metrics()) == 0)
        }
    }

    /// The CRC-32 of a PNG chunk's type and data, bit by bit.
    static func crc32(_ bytes: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
