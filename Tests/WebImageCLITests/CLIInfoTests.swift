import Foundation
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite("webimage info and convert") struct CLIInfoTests {
    @Test func infoDescribesEveryFileAndFailsOnBrokenOnes() async throws {
        let folder = TemporaryDirectory()
        let frames = (0..<3).map { index in
            ImageFrame(bitmap: Bitmap(width: 6, height: 4, pixels: [UInt8](repeating: UInt8(index * 80), count: 96)), duration: 0.2)
        }
        let gif = try ImageCodersManager.shared.encode(Image(frames: frames, loopCount: 2), as: .gif)
        try gif.write(to: folder.appending("anim.gif"))
        try Data("not an image".utf8).write(to: folder.appending("broken.png"))

        let output = try await CommandLineTool.run(
            ["info", "--json", folder.appending("anim.gif").path, folder.appending("broken.png").path], scratch: folder.url
        )
        #expect(output.status == 1)
        let lines = try output.jsonLines()
        #expect(lines.count == 2)
        #expect(lines[0]["ok"] as? Bool == true)
        #expect(lines[0]["format"] as? String == "gif")
        #expect(lines[0]["width"] as? Int == 6 && lines[0]["height"] as? Int == 4)
        #expect(lines[0]["frames"] as? Int == 3 && lines[0]["loopCount"] as? Int == 2)
        #expect(lines[0]["durations"] as? [Double] == [0.2, 0.2, 0.2])
        #expect(lines[1]["ok"] as? Bool == false)
        #expect((lines[1]["error"] as? [String: Any])?["code"] as? String == "badImageData")

        let good = try await CommandLineTool.run(["info", folder.appending("anim.gif").path], scratch: folder.url)
        #expect(good.status == 0)
        #expect(good.standardOutput.contains("gif 6×4"))
    }

    @Test func convertWritesTheFormatOfTheExtensionAtTheThumbnailSize() async throws {
        let folder = TemporaryDirectory()
        let source = Image(bitmap: Bitmap(width: 40, height: 20, pixels: [UInt8](repeating: 200, count: 3200)))
        try ImageCodersManager.shared.encode(source, as: .png).write(to: folder.appending("in.png"))
        let output = try await CommandLineTool.run(
            ["convert", folder.appending("in.png").path, folder.appending("out.webp").path, "--thumbnail", "10x10"],
            scratch: folder.url
        )
        #expect(output.status == 0)
        let written = try Data(contentsOf: folder.appending("out.webp"))
        #expect(ImageFormat(sniffing: written) == .webp)
        #expect(try ImageCodersManager.shared.decode(written).pixelSize == PixelSize(width: 10, height: 5))

        let refused = try await CommandLineTool.run(
            ["convert", folder.appending("in.png").path, folder.appending("out.xyz").path], scratch: folder.url
        )
        #expect(refused.status != 0)
    }
}
