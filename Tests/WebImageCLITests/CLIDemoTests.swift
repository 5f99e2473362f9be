import Foundation
import Testing
import WebImageTestSupport
import WebImageLoadingTestSupport

/// `webimage demo`, run as the built binary on a small sample set.
@Suite("webimage demo")
struct CLIDemoTests {
    @Test func smallDemoPassesWithDiskAndMemoryHits() async throws {
        let scratch = TemporaryDirectory(prefix: "webimage-cli")
        let output = try await CommandLineTool.run(
            ["demo", "--count", "24", "--largest-side", "128", "--cache-dir", scratch.appending("cache").path],
            scratch: scratch.url
        )
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)")
        // 24 samples: indices 10, 11, 22 and 23 are the broken kinds, so 20 load. The first
        // 12 are prefetched (10 of them load), then memory is cleared.
        let loads = output.lines.filter { $0.contains(" from memory, ") }
        #expect(loads.count == 3)
        #expect(loads.first?.hasSuffix("0 from memory, 10 from disk, 10 from the network") == true)
        #expect(loads.dropFirst().first?.hasSuffix("0 from memory, 20 from disk, 0 from the network") == true)
        #expect(loads.last?.hasSuffix("20 from memory, 0 from disk, 0 from the network") == true)
        #expect(output.lines.filter { $0.contains("errors:  4 expected, 0 unexpected") }.count == 3)
        #expect(output.lines.contains { $0.hasPrefix("  finished 12, skipped 2 (2 expected)") })
        #expect(output.lines.last?.hasPrefix("demo passed") == true)
    }
}
