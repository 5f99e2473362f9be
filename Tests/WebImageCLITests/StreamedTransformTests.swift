import Foundation
import Testing
@testable import WebImage
import WebImageConversion
import WebImageTestSupport
import WebImageLoadingTestSupport

/// Full-size operations run over a window of rows between the streaming decode and the
/// streaming encode (issue 26): each gives today's whole-picture result within one level
/// per channel, and chains that need the whole picture are left to the usual path.
@Suite("Full-size operations in strips") struct StreamedTransformTests {
    /// An odd-sized opaque JPEG of gradients, a checkerboard's hard edges and noise.
    static func picture(width: Int = 301, height: Int = 227) throws -> Data {
        var state: UInt32 = 11
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_664_525 &+ 1_013_904_223
                let noise = UInt8(state >> 27)
                let index = (y * width + x) * 4
                let light = (x / 40 + y / 40).isMultiple(of: 2)
                pixels[index] = UInt8(x * 200 / width) &+ noise
                pixels[index + 1] = light ? 230 : UInt8(y * 180 / height)
                pixels[index + 2] = light ? 20 &+ noise : 250 - noise
            }
        }
        let image = Image(bitmap: Bitmap(width: width, height: height, pixels: pixels))
        return try ImageCodersManager.shared.encode(image, as: .jpeg, options: ImageEncodeOptions(quality: 0.95))
    }

    /// The largest difference of a colour channel between two opaque bitmaps of one size.
    static func largestDifference(_ first: Bitmap, _ second: Bitmap) -> Int {
        var largest = 0
        for y in 0..<first.height {
            for x in 0..<first.width {
                let a = first.rgba8(x: x, y: y), b = second.rgba8(x: x, y: y)
                largest = max(
                    largest, abs(Int(a.red) - Int(b.red)), abs(Int(a.green) - Int(b.green)), abs(Int(a.blue) - Int(b.blue)))
            }
        }
        return largest
    }

    @Test(
        "the streamed result is the whole-picture result within one level",
        arguments: [
            "blur=0.6", "blur=2", "blur=10", "sharpen=0.5", "sharpen=1.5,2", "brightness=0.2", "contrast=1.6",
            "saturation=0.3", "tint=ff800080", "tint=3050c0,overlay", "grayscale", "flip=h",
        ])
    func streamedEqualsWhole(_ text: String) throws {
        let folder = TemporaryDirectory()
        let jpeg = try Self.picture()
        let spec = try TransformSpec(text)
        let filters = try #require(spec.rowFilters, "\(text) streams")
        let url = folder.appending("out.png")
        let size = try StreamingImageConverter.convert(jpeg, to: .png, writingTo: url, filters: filters)
        #expect(size == PixelSize(width: 301, height: 227))
        let streamed = try ImageCodersManager.shared.decode(Data(contentsOf: url)).bitmap
        let decoded = try ImageCodersManager.shared.decode(jpeg)
        let whole = try #require(spec.pipeline.transform(decoded)).bitmap
        #expect(streamed.width == whole.width && streamed.height == whole.height)
        #expect(Self.largestDifference(decoded.bitmap, whole) > 8, "the operation changes the picture")
        #expect(Self.largestDifference(streamed, whole) <= 1)
    }

    @Test func aChainStreamsWithinALevelPerOperation() throws {
        let folder = TemporaryDirectory()
        let jpeg = try Self.picture()
        let spec = try TransformSpec("flip=h|saturation=1.5|blur=3|contrast=1.2")
        let url = folder.appending("out.png")
        _ = try StreamingImageConverter.convert(jpeg, to: .png, writingTo: url, filters: try #require(spec.rowFilters))
        let streamed = try ImageCodersManager.shared.decode(Data(contentsOf: url)).bitmap
        let whole = try #require(spec.pipeline.transform(try ImageCodersManager.shared.decode(jpeg))).bitmap
        // Both paths round to 8 bits between operations: a level the blur rounds the
        // other way becomes up to two after the contrast of 1.2.
        #expect(Self.largestDifference(streamed, whole) <= 2)
    }

    @Test("a tall picture blurs in many blocks, the last reaching the bottom exactly")
    func tallPicture() throws {
        let folder = TemporaryDirectory()
        let jpeg = try Self.picture(width: 67, height: 531)
        for text in ["blur=1.5", "blur=7", "blur=9.9", "sharpen=4,3"] {
            let spec = try TransformSpec(text)
            let url = folder.appending("out.png")
            _ = try StreamingImageConverter.convert(jpeg, to: .png, writingTo: url, filters: try #require(spec.rowFilters))
            let streamed = try ImageCodersManager.shared.decode(Data(contentsOf: url)).bitmap
            let whole = try #require(spec.pipeline.transform(try ImageCodersManager.shared.decode(jpeg))).bitmap
            #expect(Self.largestDifference(streamed, whole) <= 1, "\(text)")
        }
    }

    @Test(
        "chains that need the whole picture are left to the usual path",
        arguments: [
            "resize=100", "crop=50x50", "rotate=45", "rotate=90", "flip=v", "flip=hv", "round=8", "circle",
            "blur=2|resize=100x100,fill", "blur=2|format=jpeg,max=100x100", "blur=2|format=png,maxbytes=20k",
        ])
    func wholePictureChains(_ text: String) throws {
        #expect(try TransformSpec(text).rowFilters == nil)
    }

    @Test func theToolStreamsABlurToTheWholePictureResult() async throws {
        let folder = TemporaryDirectory()
        let jpeg = try Self.picture()
        try jpeg.write(to: folder.appending("in.jpg"))
        let output = try await CommandLineTool.run(
            ["convert", folder.appending("in.jpg").path, folder.appending("out.png").path, "--transform", "blur=2|grayscale"],
            scratch: folder.url
        )
        #expect(output.status == 0, "\(output.standardError)")
        let written = try ImageCodersManager.shared.decode(Data(contentsOf: folder.appending("out.png"))).bitmap
        let whole = try #require(try TransformSpec("blur=2|grayscale").pipeline.transform(ImageCodersManager.shared.decode(jpeg)))
        #expect(Self.largestDifference(written, whole.bitmap) <= 1)
    }

    @Test(
        "turns and flips gathered from one decoded frame are the pipeline's pixels exactly",
        arguments: ["rotate=90", "rotate=180", "rotate=270", "flip=h", "flip=v", "flip=hv", "rotate=90|flip=h", "flip=h|rotate=90"])
    func orientedConversionIsExact(_ text: String) throws {
        let folder = TemporaryDirectory()
        let jpeg = try Self.picture()
        let spec = try TransformSpec(text)
        let orientation = try #require(spec.losslessOrientation)
        let url = folder.appending("out.png")
        let size = try StreamingImageConverter.convert(jpeg, orientedTo: orientation, as: .png, writingTo: url)
        let whole = try #require(spec.pipeline.transform(try ImageCodersManager.shared.decode(jpeg))).bitmap
        #expect(size == PixelSize(width: whole.width, height: whole.height))
        let gathered = try ImageCodersManager.shared.decode(Data(contentsOf: url)).bitmap
        #expect(gathered.width == whole.width && gathered.height == whole.height)
        #expect(Self.largestDifference(gathered, whole) == 0)
    }

    @Test func theToolTurnsAPictureThatCannotTurnLosslesslyFromOneFrame() async throws {
        let folder = TemporaryDirectory()
        // 301 × 227 has partial blocks on every edge: libjpeg-turbo declines a perfect turn.
        let jpeg = try Self.picture()
        try jpeg.write(to: folder.appending("in.jpg"))
        let output = try await CommandLineTool.run(
            ["convert", folder.appending("in.jpg").path, folder.appending("out.jpg").path, "--transform", "rotate=90|format=jpeg,q=90"],
            scratch: folder.url
        )
        #expect(output.status == 0, "\(output.standardError)")
        #expect(!output.standardOutput.contains("without re-encoding"))
        let written = try ImageCodersManager.shared.decode(Data(contentsOf: folder.appending("out.jpg"))).bitmap
        let decoded = try ImageCodersManager.shared.decode(jpeg)
        let turned = try #require(try TransformSpec("rotate=90").pipeline.transform(decoded)).bitmap
        let usual = try ImageCodersManager.shared.decode(
            ImageCodersManager.shared.encode(Image(bitmap: turned), as: .jpeg, options: ImageEncodeOptions(quality: 0.9))
        ).bitmap
        #expect(written.width == 227 && written.height == 301)
        // The same RGB rows through the same encoder settings as decode, turn and encode.
        #expect(Self.largestDifference(written, usual) == 0)
    }

    @Test func aTruncatedPictureFailsToTurnAndWritesNothing() throws {
        let folder = TemporaryDirectory()
        let jpeg = try Self.picture()
        let url = folder.appending("out.png")
        #expect(throws: ImageError.self) {
            _ = try StreamingImageConverter.convert(jpeg.prefix(jpeg.count / 2), orientedTo: .right, as: .png, writingTo: url)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }
}
