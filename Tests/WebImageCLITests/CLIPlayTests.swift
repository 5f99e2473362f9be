import Foundation
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite("webimage play") struct CLIPlayTests {
    @Test func snapshotFramesPrintsTheFramesInOrderAtTheirTimes() async throws {
        let folder = TemporaryDirectory()
        let frames = [0.1, 0.2, 0.3].enumerated().map { index, duration in
            ImageFrame(bitmap: Bitmap(width: 6, height: 4, pixels: [UInt8](repeating: UInt8(index * 80), count: 96)), duration: duration)
        }
        let gif = try ImageCodersManager.shared.encode(Image(frames: frames, loopCount: 0), as: .gif)
        try gif.write(to: folder.appending("anim.gif"))

        let output = try await CommandLineTool.run(
            ["play", folder.appending("anim.gif").path, "--snapshot-frames", "5", "--columns", "6", "--rows", "2"],
            scratch: folder.url
        )
        #expect(output.status == 0)
        let headers = output.standardOutput.split(separator: "\n").filter { $0.hasPrefix("frame ") }
        #expect(headers == ["frame 0 at 0.000 s", "frame 1 at 0.100 s", "frame 2 at 0.300 s", "frame 0 at 0.600 s", "frame 1 at 0.700 s"])
        #expect(output.standardOutput.contains("5 frames shown of 3, 0 skipped"))
    }

    @Test func aFileThatIsNotAnImageFails() async throws {
        let folder = TemporaryDirectory()
        try Data("not an image".utf8).write(to: folder.appending("broken.gif"))
        let output = try await CommandLineTool.run(["play", folder.appending("broken.gif").path, "--snapshot-frames", "1"], scratch: folder.url)
        #expect(output.status == 1)
    }
}
