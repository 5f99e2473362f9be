import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

@Suite struct TransformSpecTests {
    @Test func theIssueExampleWorksAsWritten() throws {
        let spec = try TransformSpec("resize=400x300,fill|round=12|blur=2|format=webp,q=80")
        #expect(spec.pipeline.key == "resize-400x300-fill-round-12-blur-2")
        #expect(spec.format == .webp)
        #expect(spec.encodeOptions?.quality == 0.8)
        let photo = Image(bitmap: Bitmap.solid(640, 400, .white), format: .jpeg)
        let result = try #require(spec.pipeline.transform(photo))
        #expect(result.pixelSize == PixelSize(width: 400, height: 300))
        // The blur after the rounding spreads a little opacity back into the corner.
        #expect(result.bitmap.rgba8(x: 0, y: 0).alpha < 8)
        #expect(result.bitmap.rgba8(x: 200, y: 150) == .white)
        #expect(result.format == .jpeg)
    }

    @Test func everyOperationParses() throws {
        let spec = try TransformSpec(
            "resize=800|resize=x60,noenlarge|resize=10x10,stretch,bg=ff000080|crop=20x10,bottomright|crop=1,2,3x4"
                + "|round=5,tl,br,border=2,color=white|circle|rotate=-90,keep,bg=black|flip=hv|tint=#00f,multiply"
                + "|grayscale|brightness=0.1|contrast=1.2|saturation=0|blur=8|sharpen=1,0.5"
                + "|overlay=logo,topleft,x=3,y=4,opacity=0.5|format=jpeg,q=85,bg=white,max=100x100,maxbytes=100k",
            overlay: { _ in Image(bitmap: Bitmap.solid(2, 2, .black)) }
        )
        #expect(
            spec.transformers.map(\.key) == [
                "resize-800x-fit", "resize-x60-fit-noenlarge", "resize-10x10-stretch-bgff000080", "crop-20x10-bottomRight",
                "crop-1,2,3x4", "round-5-tl-br-border2-ffffffff", "circle", "rotate-270-keep-bg000000ff", "flip-hv",
                "tint-0000ffff-multiply", "grayscale", "color-b0.1-c1-s1", "color-b0-c1.2-s1", "color-b0-c1-s0", "blur-8",
                "sharpen-1-0.5", "overlay-logo-topLeft-3,4-0.5",
            ])
        #expect(spec.format == .jpeg)
        #expect(
            spec.encodeOptions
                == ImageEncodeOptions(
                    quality: 0.85, background: .white, maxPixelSize: PixelSize(width: 100, height: 100), maxFileSize: 100_000
                ))
        #expect(try TransformSpec("blur=1").encodeOptions == nil)
        #expect(try TransformSpec("format=auto,lossless").format == nil)
    }

    @Test(arguments: [
        ("resize=abc", "resize", "abc"),
        ("resize=400x300,fil", "resize", "fil"),
        ("resize=0x10", "resize", "0x10"),
        ("resize=100000", "resize", "100000"),
        ("blur=-1", "blur", "-1"),
        ("blur=2|round=12,xx", "round", "xx"),
        ("flip=d", "flip", "d"),
        ("tint=notacolour", "tint", "notacolour"),
        ("tint=red,burn", "tint", "burn"),
        ("crop=10x10,middle", "crop", "middle"),
        ("format=svg", "format", "svg"),
        ("format=webp,q=120", "format", "q=120"),
        ("format=jpeg,maxbytes=lots", "format", "maxbytes=lots"),
        ("round=4,,tl", "round", ""),
    ])
    func badArgumentsNameTheOperationAndTheArgument(spec: String, operation: String, argument: String) {
        #expect {
            try TransformSpec(spec)
        } throws: { error in
            guard let error = error as? TransformSpecError else { return false }
            return error.operation == operation && error.argument == argument && !error.message.isEmpty
        }
    }

    @Test func badSpecsSayWhatIsWrong() {
        func message(_ text: String) -> String {
            do {
                _ = try TransformSpec(text)
                return ""
            } catch {
                return error.description
            }
        }
        #expect(message("").contains("empty"))
        #expect(message("blur=2||round=3").contains("empty"))
        #expect(message("sparkle=3").hasPrefix("sparkle: unknown operation; the operations are resize, crop"))
        #expect(message("blur").hasPrefix("blur: missing a sigma"))
        #expect(message("format=png|format=jpeg").contains("only once"))
        #expect(message("overlay=logo.png").contains("not available"))
        #expect(message("blur=600") == "blur: argument '600': expected a number from 0.1 to 500")
    }

    @Test func iccIsKeepOrSRGB() throws {
        #expect(try TransformSpec("format=png,icc=keep").encodeOptions?.colorProfile == .keep)
        #expect(try TransformSpec("format=png,icc=srgb").encodeOptions?.colorProfile == .convertToSRGB)
        #expect(throws: TransformSpecError.self) { try TransformSpec("format=png,icc=maybe") }
    }

    @Test func insideIsAResizeModeOfItsOwn() throws {
        let inside = try #require(try TransformSpec("resize=512x512,inside").transformers.first as? ResizingImageTransformer)
        #expect(inside.contentMode == .inside)
        #expect(inside.key == "resize-512x512-inside")
        #expect(try TransformSpec("resize=512x512,fit").pipeline.key != TransformSpec("resize=512x512,inside").pipeline.key)
        #expect(try TransformSpec("resize=512x512,INSIDE,noenlarge").pipeline.key == "resize-512x512-inside-noenlarge")
        let photo = Image(bitmap: Bitmap.solid(600, 400, .white))
        #expect(try #require(try TransformSpec("resize=512x512,inside").pipeline.transform(photo)).pixelSize == PixelSize(width: 512, height: 341))
        // It decodes to the size it scales to, as a fit does.
        #expect(try TransformSpec("resize=400x300,inside").decodeOptions.thumbnailPixelSize == PixelSize(width: 400, height: 300))
        #expect(throws: TransformSpecError.self) { try TransformSpec("resize=512x512,inside=1") }
    }

    @Test func aLeadingResizeDecodesAtTheTargetSize() throws {
        #expect(try TransformSpec("resize=800|blur=2").decodeOptions.thumbnailPixelSize?.width == 800)
        #expect(try TransformSpec("resize=400x300").decodeOptions.thumbnailPixelSize == PixelSize(width: 400, height: 300))
        // A fill decodes to the smallest size that covers its box, then crops (shrink-on-load).
        let fill = try TransformSpec("resize=400x300,fill").decodeOptions
        #expect(fill.thumbnailPixelSize == PixelSize(width: 400, height: 300) && fill.coversThumbnailBox)
        #expect(try TransformSpec("blur=2|resize=800").decodeOptions.thumbnailPixelSize == nil)
    }
}
