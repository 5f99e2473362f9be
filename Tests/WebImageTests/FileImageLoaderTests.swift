import Foundation
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite("FileImageLoader")
struct FileImageLoaderTests {
    @Test func loadsAndDecodesAFile() async throws {
        let folder = TemporaryDirectory()
        let file = folder.appending("picture.raw")
        try Data(RawRGBATestCoder.encode(width: 3, height: 2, blue: 42)).write(to: file)
        let loader = FileImageLoader(coders: ImageCodersManager(coders: [RawRGBATestCoder()]))
        #expect(loader.canLoad(file))
        #expect(!loader.canLoad(URL(string: "https://example.com/a.png")!))
        let progress = DownloadCallbackRecorder<[Int64]>()
        let result = try await loader.loadImage(ImageLoadRequest(url: file, progress: { progress.append([$0, $1]) }))
        let image = try #require(result.image)
        #expect(image.pixelSize == PixelSize(width: 3, height: 2))
        #expect(Array(image.bitmap.pixels[20..<24]) == [2, 1, 42, 255])
        #expect(result.data.count == 8 + 3 * 2 * 4)
        #expect(result.response == nil)
        #expect(progress.values.last == [32, 32])
    }

    @Test func aMissingFileIsAFileSystemError() async {
        let loader = FileImageLoader(coders: ImageCodersManager(coders: [RawRGBATestCoder()]))
        let url = TemporaryDirectory().appending("absent.raw")
        let error = await capturedError { () async throws(ImageError) in try await loader.loadImage(ImageLoadRequest(url: url)) }
        #expect(error?.code == .fileSystem)
    }

    @Test func anUndecodableFileIsBadImageData() async throws {
        let folder = TemporaryDirectory()
        let file = folder.appending("junk.raw")
        try Data("junk".utf8).write(to: file)
        let loader = FileImageLoader(coders: ImageCodersManager(coders: [RawRGBATestCoder()]))
        let error = await capturedError { () async throws(ImageError) in try await loader.loadImage(ImageLoadRequest(url: file)) }
        #expect(error?.code == .badImageData)
    }
}
