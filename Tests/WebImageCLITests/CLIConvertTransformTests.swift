import Foundation
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite("webimage convert --transform") struct CLIConvertTransformTests {
    @Test func theSpecDecidesTheOperationsTheFormatAndTheQuality() async throws {
        let folder = TemporaryDirectory()
        let source = Image(bitmap: Bitmap.solid(640, 400, RGBA8(red: 30, green: 160, blue: 90)))
        try ImageCodersManager.shared.encode(source, as: .png).write(to: folder.appending("in.png"))
        let output = try await CommandLineTool.run(
            [
                "convert", folder.appending("in.png").path, folder.appending("out.img").path,
                "--transform", "resize=400x300,fill|round=12|blur=2|format=webp,q=80",
            ],
            scratch: folder.url
        )
        #expect(output.status == 0, "\(output.standardError)")
        let data = try Data(contentsOf: folder.appending("out.img"))
        #expect(ImageFormat(sniffing: data) == .webp)
        let written = try ImageCodersManager.shared.decode(data)
        #expect(written.pixelSize == PixelSize(width: 400, height: 300))
        #expect(written.bitmap.rgba8(x: 0, y: 0).alpha < 8, "rounded, then blurred a little")
        #expect(written.bitmap.rgba8(x: 200, y: 150).alpha == 255)
    }

    @Test func theFormatComesFromTheExtensionWithoutFormatAndOverlaysAreFiles() async throws {
        let folder = TemporaryDirectory()
        try ImageCodersManager.shared.encode(Image(bitmap: Bitmap.solid(100, 50, .white)), as: .png)
            .write(to: folder.appending("in.png"))
        try ImageCodersManager.shared.encode(Image(bitmap: Bitmap.solid(10, 10, .black)), as: .png)
            .write(to: folder.appending("logo.png"))
        let output = try await CommandLineTool.run(
            [
                "convert", folder.appending("in.png").path, folder.appending("out.jpg").path,
                "--transform", "overlay=\(folder.appending("logo.png").path),bottomright,x=5,y=5",
            ],
            scratch: folder.url
        )
        #expect(output.status == 0, "\(output.standardError)")
        let written = try ImageCodersManager.shared.decode(Data(contentsOf: folder.appending("out.jpg")))
        #expect(written.format == .jpeg && written.pixelSize == PixelSize(width: 100, height: 50))
        #expect(written.bitmap.rgba8(x: 89, y: 39).red < 20)
        #expect(written.bitmap.rgba8(x: 50, y: 20).red > 235)
    }

    @Test func aBadSpecFailsNamingTheBadPart() async throws {
        let folder = TemporaryDirectory()
        try ImageCodersManager.shared.encode(Image(bitmap: Bitmap.solid(10, 10, .white)), as: .png)
            .write(to: folder.appending("in.png"))
        let output = try await CommandLineTool.run(
            ["convert", folder.appending("in.png").path, folder.appending("out.png").path, "--transform", "resize=400x300|blur=lots"],
            scratch: folder.url
        )
        #expect(output.status != 0)
        #expect(output.standardError.contains("blur: argument 'lots': expected a number"))
        #expect(!FileManager.default.fileExists(atPath: folder.appending("out.png").path))
    }
}
