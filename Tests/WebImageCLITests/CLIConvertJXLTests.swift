#if JXL
import Foundation
import Testing
import WebImage
import WebImageTestSupport

/// `webimage convert a.jpg a.jxl` recompresses the JPEG without loss when nothing changes
/// its pixels, and says so; with a resize it encodes the pixels as before.
@Suite("webimage convert to JPEG XL", JXLReconstruction.required) struct CLIConvertJXLTests {
    @Test func aJPEGIsRecompressedAndSaysSoAndAResizeIsEncoded() async throws {
        let folder = TemporaryDirectory()
        let source = Image(bitmap: Bitmap.solid(320, 200, RGBA8(red: 30, green: 160, blue: 90)))
        let jpeg = try ImageCodersManager.shared.encode(source, as: .jpeg)
        try jpeg.write(to: folder.appending("in.jpg"))
        let output = try await CommandLineTool.run(
            ["convert", folder.appending("in.jpg").path, folder.appending("out.jxl").path], scratch: folder.url)
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.lines.count == 1 && output.standardOutput.contains("recompressed without loss"), "\(output.standardOutput)")
        let jxl = try Data(contentsOf: folder.appending("out.jxl"))
        #expect(JXLReconstruction.boxTypes(of: jxl).contains("jbrd"))
        #expect(try JXLReconstruction.jpeg(from: jxl, in: folder.url) == jpeg)

        let resized = try await CommandLineTool.run(
            ["convert", folder.appending("in.jpg").path, folder.appending("small.jxl").path, "--transform", "resize=160"],
            scratch: folder.url)
        #expect(resized.status == 0, "\(resized.standardError)")
        #expect(!resized.standardOutput.contains("recompressed"))
        let small = try Data(contentsOf: folder.appending("small.jxl"))
        #expect(!JXLReconstruction.boxTypes(of: small).contains("jbrd"))
        #expect(try ImageCodersManager.shared.decode(small).pixelSize == PixelSize(width: 160, height: 100))
    }
}
#endif
