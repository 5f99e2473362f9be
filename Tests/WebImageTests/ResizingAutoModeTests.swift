import Testing
@testable import WebImage

/// `resize=WxH,auto` (imgproxy's `rs:auto`): a fill when the picture and the box have the
/// same orientation, a fit inside the box otherwise.
@Suite("Resizing auto mode")
struct ResizingAutoModeTests {
    static func resized(_ width: Int, _ height: Int, spec: String) throws -> PixelSize? {
        let spec = try TransformSpec(spec)
        return spec.pipeline.transform(Image(bitmap: Bitmap(width: width, height: height)))?.pixelSize
    }

    @Test func fillsTheSameOrientationAndFitsTheOther() throws {
        #expect(try Self.resized(64, 48, spec: "resize=20x10,auto") == PixelSize(width: 20, height: 10))
        #expect(try Self.resized(48, 64, spec: "resize=20x10,auto") == PixelSize(width: 8, height: 10))
        #expect(try Self.resized(64, 48, spec: "resize=16x16,auto") == PixelSize(width: 16, height: 12), "a square box is not landscape")
        #expect(try Self.resized(300, 100, spec: "resize=200x150,auto,noenlarge") == PixelSize(width: 200, height: 100))
        #expect(ResizingImageTransformer.ContentMode.fill.resolved(source: PixelSize(width: 1, height: 2), width: 2, height: 1) == .fill)
        #expect(try TransformSpec("resize=20x10,auto,smart").transformers.count == 1)
        #expect(throws: TransformSpecError.self) { try TransformSpec("resize=20,auto,smart") }
    }
}
