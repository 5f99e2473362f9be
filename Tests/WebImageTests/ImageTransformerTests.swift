import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite struct ImageTransformerTests {
    /// 4×2, red channel numbering the pixels row by row.
    let numbered: Image = {
        var bitmap = Bitmap(width: 4, height: 2)
        for index in 0..<8 {
            bitmap.pixels[index * 4] = UInt8(index * 10)
            bitmap.pixels[index * 4 + 3] = 255
        }
        return Image(
            frames: [ImageFrame(bitmap: bitmap, duration: 0.5), ImageFrame(bitmap: bitmap, duration: 0.25)],
            loopCount: 3, scale: 2, format: .gif)
    }()

    @Test func transformedKeysKeepTheExtensionAndQuery() {
        let resize = ResizingImageTransformer(size: PixelSize(width: 20, height: 10))
        #expect(resize.transformedKey(for: "https://x.org/a/b.png") == "https://x.org/a/b-resize-20x10-fit.png")
        #expect(resize.transformedKey(for: "https://x.org/a/b.png?v=1") == "https://x.org/a/b-resize-20x10-fit.png?v=1")
        #expect(resize.transformedKey(for: "https://x.org/a.b/photo") == "https://x.org/a.b/photo-resize-20x10-fit")
        #expect(resize.transformedKey(for: "plain") == "plain-resize-20x10-fit")
    }

    @Test func resizingFitsAndKeepsTheAnimation() throws {
        let image = try #require(ResizingImageTransformer(size: PixelSize(width: 2, height: 2)).transform(numbered))
        #expect(image.pixelSize == PixelSize(width: 2, height: 2), "aspect fit centres the picture on the requested canvas")
        #expect(image.bitmap.rgba8(x: 0, y: 0).alpha == 255 && image.bitmap.rgba8(x: 0, y: 1).alpha == 0)
        #expect(image.frames.map(\.duration) == [0.5, 0.25])
        #expect(image.loopCount == 3 && image.scale == 2 && image.format == .gif)
        let filled = try #require(
            ResizingImageTransformer(size: PixelSize(width: 2, height: 2), contentMode: .fill)
                .transform(numbered))
        #expect(filled.pixelSize == PixelSize(width: 2, height: 2))
        #expect(ResizingImageTransformer(size: PixelSize(width: 4, height: 2)).transform(numbered) == nil)
    }

    @Test func croppingKeepsTheRectangle() throws {
        let image = try #require(CroppingImageTransformer(x: 1, y: 1, size: PixelSize(width: 2, height: 5)).transform(numbered))
        #expect(image.pixelSize == PixelSize(width: 2, height: 1))
        #expect(image.bitmap.rgba8(x: 0, y: 0).red == 50)
        #expect(image.bitmap.rgba8(x: 1, y: 0).red == 60)
        #expect(CroppingImageTransformer(x: 9, y: 9, size: PixelSize(width: 2, height: 2)).transform(numbered) == nil)
    }

    @Test func pipelinesRunInOrderAndJoinKeys() throws {
        let pipeline = ImageTransformerPipeline([
            CroppingImageTransformer(x: 0, y: 0, size: PixelSize(width: 2, height: 2)),
            ResizingImageTransformer(size: PixelSize(width: 1, height: 1)),
        ])
        #expect(pipeline.key == "crop-0,0,2x2-resize-1x1-fit")
        let image = try #require(pipeline.transform(numbered))
        #expect(image.pixelSize == PixelSize(width: 1, height: 1))
        #expect(image.bitmap.rgba8(x: 0, y: 0).red == 25)
    }
}
