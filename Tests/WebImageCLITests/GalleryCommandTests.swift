import Foundation
import Testing
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite struct GalleryCommandTests {
    @Test func aDemoSnapshotPrintsOneSettledFrame() async throws {
        let folder = TemporaryDirectory()
        let result = try await CommandLineTool.run(
            ["gallery", "--demo", "--snapshot", "--columns", "4", "--rows", "3"], scratch: folder.url
        )
        let (status, output) = (result.status, result.standardOutput)
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }

        #expect(status == 0)
        #expect(lines.count == 3 * 9 + 1)
        let statusLine = try #require(lines.last)
        #expect(statusLine.hasPrefix("items 1–12 of 1000 · "))
        #expect(statusLine.contains("cancelled 0"))
        #expect(!output.contains("\u{1B}[?1049h"))
        #expect(lines[0].contains("\u{1B}[38;2;"))
        for item in 1...10 {
            #expect(output.contains("● #\(item) network"))
        }
        #expect(output.contains("✗ #12 badImageData"))
    }

    @Test func theGalleryNeedsExactlyOneSource() async throws {
        let folder = TemporaryDirectory()
        let none = try await CommandLineTool.run(["gallery", "--snapshot"], scratch: folder.url).status
        let both = try await CommandLineTool.run(
            ["gallery", "--demo", "https://example.com/a.png", "--snapshot"], scratch: folder.url
        ).status
        #expect(none != 0)
        #expect(both != 0)
    }
}
