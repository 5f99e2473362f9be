import Foundation
import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// Blur, sharpen, tint, grayscale and colour controls, and every transformer's key.
@Suite struct EffectTransformerTests {
    @Test(arguments: [0.6, 2.0, 8.0])
    func aBlurOfAFlatImageIsTheSameFlatImage(sigma: Double) throws {
        let flat = Bitmap.solid(64, 48, RGBA8(red: 200, green: 100, blue: 7, alpha: 255))
        let blurred = try #require(GaussianBlurImageTransformer(sigma: sigma).transform(Image(bitmap: flat)))
        #expect(blurred.bitmap == flat)
        let clearish = Bitmap.solid(30, 30, RGBA8(red: 10, green: 250, blue: 90, alpha: 60))
        #expect(try clearish.gaussianBlurred(sigma: sigma) == clearish)
    }

    /// A single bright pixel spreads into the Gaussian's profile, within 1% of its peak,
    /// in both the direct (small sigma) and the recursive (large sigma) blur.
    @Test(arguments: [0.7, 2.0, 5.0])
    func theBlurOfOneBrightPixelFollowsTheGaussian(sigma: Double) throws {
        let size = 2 * Int((6 * sigma).rounded(.up)) + 1
        let centre = size / 2
        let dot = Bitmap.painted16(size, size) { x, y in [x == centre && y == centre ? 65535 : 0, 0, 0, 65535] }
        let blurred = try dot.gaussianBlurred(sigma: sigma)
        let radius = Int((4 * sigma).rounded(.up))
        let weights = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = weights.reduce(0, +)
        let peak = 65535 * (weights[radius] / total) * (weights[radius] / total)
        var worst = 0.0
        for y in 0..<size {
            for x in 0..<size {
                let dx = x - centre, dy = y - centre
                let expected =
                    abs(dx) <= radius && abs(dy) <= radius
                    ? 65535 * weights[dx + radius] / total * weights[dy + radius] / total
                    : 0
                worst = max(worst, abs(Double(blurred.channels16(x: x, y: y)[0]) - expected))
            }
        }
        #expect(worst <= 0.01 * peak, "worst error \(worst) against a peak of \(peak)")
    }

    @Test func blurredClearPixelsDoNotDarkenOpaqueOnes() throws {
        let half = Bitmap.painted(40, 20) { x, _ in x < 20 ? RGBA8(red: 255, green: 255, blue: 255) : .clear }
        let blurred = try half.gaussianBlurred(sigma: 3)
        for x in 0..<40 {
            let pixel = blurred.rgba8(x: x, y: 10)
            if pixel.alpha > 8 { #expect(pixel.red >= 250, "\(x): \(pixel)") }
        }
    }

    @Test func sharpeningStrengthensAnEdgeAndLeavesFlatAreas() throws {
        let edge = Bitmap.painted(40, 10) { x, _ in x < 20 ? RGBA8(red: 100, green: 100, blue: 100) : RGBA8(red: 150, green: 150, blue: 150) }
        let sharp = try #require(SharpeningImageTransformer(sigma: 1.5, amount: 1).transform(Image(bitmap: edge))).bitmap
        #expect(sharp.rgba8(x: 19, y: 5).red < 100)
        #expect(sharp.rgba8(x: 20, y: 5).red > 150)
        #expect(sharp.rgba8(x: 2, y: 5).red == 100 && sharp.rgba8(x: 38, y: 5).red == 150)
    }

    @Test func tintsBlendTheColourAndKeepAlpha() throws {
        let photo = Image(bitmap: Bitmap.solid(4, 4, RGBA8(red: 200, green: 100, blue: 50, alpha: 128)))
        let normal = try #require(TintImageTransformer(colour: RGBA8(red: 0, green: 0, blue: 255)).transform(photo)).bitmap
        #expect(normal.rgba8(x: 1, y: 1) == RGBA8(red: 0, green: 0, blue: 255, alpha: 128))
        let multiply = try #require(TintImageTransformer(colour: .white, blendMode: .multiply).transform(photo)).bitmap
        #expect(multiply == photo.bitmap)
        let screen = try #require(TintImageTransformer(colour: .white, blendMode: .screen).transform(photo)).bitmap
        #expect(screen.rgba8(x: 0, y: 0) == RGBA8(red: 255, green: 255, blue: 255, alpha: 128))
        let half = try #require(TintImageTransformer(colour: RGBA8(red: 0, green: 0, blue: 0, alpha: 128)).transform(photo)).bitmap
        #expect(half.rgba8(x: 0, y: 0) == RGBA8(red: 100, green: 50, blue: 25, alpha: 128))
        let overlay = try #require(
            TintImageTransformer(colour: RGBA8(red: 128, green: 128, blue: 128), blendMode: .overlay)
                .transform(photo)
        ).bitmap
        #expect(abs(Int(overlay.rgba8(x: 0, y: 0).red) - 200) <= 1)
        #expect(TintImageTransformer(colour: .clear).transform(photo) == nil)
    }

    @Test func grayscaleAndColourControls() throws {
        let photo = Image(bitmap: Bitmap.solid(3, 3, RGBA8(red: 200, green: 100, blue: 50)))
        let gray = try #require(GrayscaleImageTransformer().transform(photo)).bitmap.rgba8(x: 1, y: 1)
        let weighted: Double = 0.2126 * 200 + 0.7152 * 100 + 0.0722 * 50
        let luma = UInt8(weighted.rounded())
        #expect(gray == RGBA8(red: luma, green: luma, blue: luma))
        let desaturated = try #require(ColorControlsImageTransformer(saturation: 0).transform(photo)).bitmap.rgba8(x: 0, y: 0)
        #expect(desaturated == gray)
        let bright = try #require(ColorControlsImageTransformer(brightness: 1).transform(photo)).bitmap.rgba8(x: 0, y: 0)
        #expect(bright == .white)
        let flat = try #require(ColorControlsImageTransformer(contrast: 0).transform(photo)).bitmap.rgba8(x: 0, y: 0)
        #expect(flat == RGBA8(red: 128, green: 128, blue: 128))
        #expect(ColorControlsImageTransformer().transform(photo) == nil)
    }

    @Test func keysAreStableAndDistinct() {
        let badge = Image(bitmap: Bitmap.solid(1, 1, .white))
        let expected: [(any ImageTransformer, String)] = [
            (ResizingImageTransformer(size: PixelSize(width: 400, height: 300), contentMode: .aspectFill), "resize-400x300-fill"),
            (ResizingImageTransformer(width: 800), "resize-800x-fit"),
            (ResizingImageTransformer(height: 80, allowsEnlarging: false), "resize-x80-fit-noenlarge"),
            (ResizingImageTransformer(size: PixelSize(width: 4, height: 3), contentMode: .fill, background: .white), "resize-4x3-stretch-bgffffffff"),
            (CroppingImageTransformer(x: 1, y: 2, size: PixelSize(width: 3, height: 4)), "crop-1,2,3x4"),
            (CroppingImageTransformer(size: PixelSize(width: 3, height: 4), gravity: .topLeft), "crop-3x4-topLeft"),
            (RoundedCornersImageTransformer(radius: 12), "round-12"),
            (
                RoundedCornersImageTransformer(radius: 2.5, corners: [.topLeft, .bottomRight], border: ImageBorder(width: 1, colour: .black)),
                "round-2.5-tl-br-border1-000000ff"
            ),
            (CircleImageTransformer(), "circle"),
            (RotatingImageTransformer(degrees: -90), "rotate-270"),
            (RotatingImageTransformer(degrees: 30, fitsCanvas: false, background: .white), "rotate-30-keep-bgffffffff"),
            (FlippingImageTransformer(horizontal: true), "flip-h"),
            (FlippingImageTransformer(vertical: true), "flip-v"),
            (TintImageTransformer(colour: .black, blendMode: .multiply), "tint-000000ff-multiply"),
            (GrayscaleImageTransformer(), "grayscale"),
            (ColorControlsImageTransformer(brightness: 0.2, contrast: 1.1, saturation: 0), "color-b0.2-c1.1-s0"),
            (GaussianBlurImageTransformer(sigma: 2), "blur-2"),
            (SharpeningImageTransformer(sigma: 1, amount: 0.5), "sharpen-1-0.5"),
            (
                OverlayImageTransformer(overlay: badge, name: "logo.png", gravity: .bottomRight, offsetX: 10, offsetY: 5, opacity: 0.5),
                "overlay-logo.png-bottomRight-10,5-0.5"
            ),
        ]
        for (transformer, key) in expected {
            #expect(transformer.key == key)
        }
        #expect(Set(expected.map { $0.0.key }).count == expected.count)
        let pipeline = ImageTransformerPipeline([RoundedCornersImageTransformer(radius: 12), GaussianBlurImageTransformer(sigma: 2)])
        #expect(pipeline.key == "round-12-blur-2")
        #expect(pipeline.transformedKey(for: "https://x.org/a.png") == "https://x.org/a-round-12-blur-2.png")
        #expect(pipeline.transformedKey(for: "https://x.org/a.") == "https://x.org/a.-round-12-blur-2")
    }

    @Test func transformedImagesKeepTheirFormat() throws {
        let image = Image(bitmap: Bitmap.solid(10, 10, .white), format: .webp)
        #expect(try #require(GaussianBlurImageTransformer(sigma: 1).transform(image)).format == .webp)
        #expect(try #require(CircleImageTransformer().transform(image)).format == .webp)
    }
}
