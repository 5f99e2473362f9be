import Testing
@testable import WebImage
import WebImageTestSupport
import WebImageLoadingTestSupport

/// Resize, crop, rounded corners, circle, rotation, flip and overlay, pixel by pixel.
@Suite struct GeometryTransformerTests {
    /// 5×3 with every pixel different, opaque.
    let numbered = Bitmap.painted(5, 3) { x, y in RGBA8(red: UInt8(x * 40), green: UInt8(y * 90), blue: UInt8(x + y * 5)) }

    @Test func aspectFillHasExactlyTheRequestedSize() throws {
        let photo = Image(bitmap: Bitmap.solid(300, 200, .white))
        for (width, height) in [(100, 100), (120, 30), (37, 91), (400, 300)] {
            let transformer = ResizingImageTransformer(size: PixelSize(width: width, height: height), contentMode: .aspectFill)
            let result = try #require(transformer.transform(photo))
            #expect(result.pixelSize == PixelSize(width: width, height: height))
            #expect(result.bitmap.rgba8(x: 0, y: 0) == .white)
            #expect(result.bitmap.rgba8(x: width - 1, y: height - 1) == .white)
        }
    }

    @Test func aspectFitCentresThePictureOnAClearCanvasOfTheRequestedSize() throws {
        let photo = Image(bitmap: Bitmap.solid(200, 100, .white))
        let result = try #require(ResizingImageTransformer(size: PixelSize(width: 100, height: 100)).transform(photo))
        #expect(result.pixelSize == PixelSize(width: 100, height: 100))
        #expect(result.bitmap.rgba8(x: 50, y: 10) == .clear)
        #expect(result.bitmap.rgba8(x: 50, y: 50) == .white)
        #expect(result.bitmap.rgba8(x: 50, y: 89) == .clear)
        let padded = try #require(
            ResizingImageTransformer(size: PixelSize(width: 100, height: 100), background: .black)
                .transform(photo))
        #expect(padded.bitmap.rgba8(x: 50, y: 10) == .black)
    }

    @Test func insideScalesIntoTheBoxWithoutACanvas() throws {
        let photo = Image(bitmap: Bitmap.solid(600, 400, .white))
        let inside = ResizingImageTransformer(size: PixelSize(width: 512, height: 512), contentMode: .inside)
        let result = try #require(inside.transform(photo))
        #expect(result.pixelSize == PixelSize(width: 512, height: 341))
        // No bars: every edge pixel is the picture's, opaque.
        for (x, y) in [(0, 0), (511, 0), (0, 340), (511, 340), (256, 170)] {
            #expect(result.bitmap.rgba8(x: x, y: y) == .white, "(\(x),\(y))")
        }
        let tall = ResizingImageTransformer(size: PixelSize(width: 100, height: 100), contentMode: .inside)
        #expect(try #require(tall.transform(Image(bitmap: Bitmap.solid(50, 200, .white)))).pixelSize == PixelSize(width: 25, height: 100))
        // A picture already inside the box is enlarged to touch it, unless that is refused.
        #expect(try #require(inside.transform(Image(bitmap: Bitmap.solid(300, 200, .white)))).pixelSize == PixelSize(width: 512, height: 341))
        var noEnlarge = inside
        noEnlarge.allowsEnlarging = false
        #expect(noEnlarge.transform(Image(bitmap: Bitmap.solid(300, 200, .white))) == nil)
        #expect(try #require(noEnlarge.transform(photo)).pixelSize == PixelSize(width: 512, height: 341))
        #expect(inside.key == "resize-512x512-inside")
        #expect(noEnlarge.key == "resize-512x512-inside-noenlarge")
        // With one side it is the one-sided resize.
        let oneSide = ResizingImageTransformer(width: 150, contentMode: .inside)
        #expect(try #require(oneSide.transform(photo)).pixelSize == PixelSize(width: 150, height: 100))
    }

    @Test func oneSideFollowsTheAspectRatioAndNoEnlargeKeepsSmallImages() throws {
        let photo = Image(bitmap: Bitmap.solid(300, 200, .white))
        #expect(try #require(ResizingImageTransformer(width: 150).transform(photo)).pixelSize == PixelSize(width: 150, height: 100))
        #expect(try #require(ResizingImageTransformer(height: 50).transform(photo)).pixelSize == PixelSize(width: 75, height: 50))
        #expect(try #require(ResizingImageTransformer(width: 600).transform(photo)).pixelSize == PixelSize(width: 600, height: 400))
        #expect(ResizingImageTransformer(width: 600, allowsEnlarging: false).transform(photo) == nil)
        let stretched = try #require(
            ResizingImageTransformer(size: PixelSize(width: 10, height: 50), contentMode: .fill)
                .transform(photo))
        #expect(stretched.pixelSize == PixelSize(width: 10, height: 50))
    }

    /// An opaque red square beside clear black: no resampled pixel may turn dark red.
    @Test(arguments: [PixelSize(width: 13, height: 7), PixelSize(width: 97, height: 41)])
    func resizingWithAlphaLeavesNoDarkFringe(size: PixelSize) throws {
        let half = Bitmap.painted(40, 20) { x, _ in x < 20 ? RGBA8(red: 255, green: 0, blue: 0) : .clear }
        let resized = try half.resized(to: size)
        var sawEdge = false
        for y in 0..<size.height {
            for x in 0..<size.width {
                let pixel = resized.rgba8(x: x, y: y)
                guard pixel.alpha > 8 else { continue }
                if pixel.alpha < 250 { sawEdge = true }
                #expect(pixel.red >= 250 && pixel.green <= 2 && pixel.blue <= 2, "(\(x),\(y)) = \(pixel)")
            }
        }
        #expect(sawEdge)
    }

    @Test func cropAtAGravityKeepsThatCorner() throws {
        let image = Image(bitmap: numbered)
        let corner = try #require(CroppingImageTransformer(size: PixelSize(width: 2, height: 2), gravity: .bottomRight).transform(image))
        #expect(corner.bitmap.rgba8(x: 0, y: 0) == numbered.rgba8(x: 3, y: 1))
        #expect(corner.bitmap.rgba8(x: 1, y: 1) == numbered.rgba8(x: 4, y: 2))
        let centre = try #require(CroppingImageTransformer(size: PixelSize(width: 3, height: 1), gravity: .center).transform(image))
        #expect(centre.bitmap.rgba8(x: 0, y: 0) == numbered.rgba8(x: 1, y: 1))
    }

    @Test func aRoundedCornerIsClearAndTheCentreUntouched() throws {
        let photo = Bitmap.painted(40, 30) { x, y in RGBA8(red: UInt8(x * 6), green: UInt8(y * 8), blue: 77) }
        let rounded = try #require(RoundedCornersImageTransformer(radius: 10).transform(Image(bitmap: photo))).bitmap
        for (x, y) in [(0, 0), (39, 0), (0, 29), (39, 29), (1, 1)] {
            #expect(rounded.rgba8(x: x, y: y).alpha == 0)
        }
        #expect(rounded.rgba8(x: 20, y: 15) == photo.rgba8(x: 20, y: 15))
        #expect(rounded.rgba8(x: 20, y: 0) == photo.rgba8(x: 20, y: 0))
        #expect(rounded.rgba8(x: 10, y: 10) == photo.rgba8(x: 10, y: 10))

        let oneCorner = try #require(RoundedCornersImageTransformer(radius: 10, corners: .topRight).transform(Image(bitmap: photo))).bitmap
        #expect(oneCorner.rgba8(x: 39, y: 0).alpha == 0)
        #expect(oneCorner.rgba8(x: 0, y: 0) == photo.rgba8(x: 0, y: 0))

        let bordered = try #require(
            RoundedCornersImageTransformer(radius: 10, border: ImageBorder(width: 3, colour: .black))
                .transform(Image(bitmap: photo))
        ).bitmap
        #expect(bordered.rgba8(x: 20, y: 2) == .black)
        #expect(bordered.rgba8(x: 20, y: 15) == photo.rgba8(x: 20, y: 15))
    }

    @Test func aCircleOfASquareHasClearCornersAndAnOpaqueCentre() throws {
        let square = Image(bitmap: Bitmap.solid(50, 50, .white))
        let circle = try #require(CircleImageTransformer().transform(square)).bitmap
        #expect(circle.size == PixelSize(width: 50, height: 50))
        for (x, y) in [(0, 0), (49, 0), (0, 49), (49, 49), (5, 5)] {
            #expect(circle.rgba8(x: x, y: y).alpha == 0)
        }
        #expect(circle.rgba8(x: 25, y: 25) == .white)
        #expect(circle.rgba8(x: 25, y: 1) == .white)
        let wide = try #require(CircleImageTransformer().transform(Image(bitmap: Bitmap.solid(80, 50, .white))))
        #expect(wide.pixelSize == PixelSize(width: 50, height: 50))
    }

    @Test func fourQuarterTurnsReturnTheOriginalPixels() throws {
        var image = Image(bitmap: numbered)
        for _ in 0..<4 {
            image = try #require(RotatingImageTransformer(degrees: 90).transform(image))
        }
        #expect(image.bitmap == numbered)
    }

    @Test func aQuarterTurnEqualsTheOrientationTransform() throws {
        let turned = try #require(RotatingImageTransformer(degrees: 90).transform(Image(bitmap: numbered)))
        #expect(try turned.bitmap == numbered.oriented(.right))
        let back = try #require(RotatingImageTransformer(degrees: -90).transform(Image(bitmap: numbered)))
        #expect(try back.bitmap == numbered.oriented(.left))
        #expect(RotatingImageTransformer(degrees: 720).transform(Image(bitmap: numbered)) == nil)
    }

    @Test func anyAngleGrowsTheCanvasOverTheBackground() throws {
        let square = Image(bitmap: Bitmap.solid(20, 20, .white))
        let turned = try #require(RotatingImageTransformer(degrees: 45, background: .black).transform(square)).bitmap
        #expect(turned.width == 29 && turned.height == 29)
        #expect(turned.rgba8(x: 0, y: 0) == .black)
        #expect(turned.rgba8(x: 14, y: 14) == .white)
        #expect(turned.rgba8(x: 14, y: 1).red > 100)
        let kept = try #require(RotatingImageTransformer(degrees: 30, fitsCanvas: false).transform(square)).bitmap
        #expect(kept.size == PixelSize(width: 20, height: 20))
        #expect(kept.rgba8(x: 0, y: 0).alpha == 0)
    }

    @Test func flipsMirror() throws {
        let horizontal = try #require(FlippingImageTransformer(horizontal: true).transform(Image(bitmap: numbered))).bitmap
        #expect(horizontal.rgba8(x: 0, y: 0) == numbered.rgba8(x: 4, y: 0))
        let vertical = try #require(FlippingImageTransformer(vertical: true).transform(Image(bitmap: numbered))).bitmap
        #expect(vertical.rgba8(x: 0, y: 0) == numbered.rgba8(x: 0, y: 2))
        let both = try #require(FlippingImageTransformer(horizontal: true, vertical: true).transform(Image(bitmap: numbered))).bitmap
        #expect(try both == numbered.oriented(.down))
    }

    @Test func overlayAtOpacityZeroLeavesTheBaseUnchanged() throws {
        let base = Image(bitmap: numbered)
        let badge = Image(bitmap: Bitmap.solid(2, 2, .black))
        #expect(OverlayImageTransformer(overlay: badge, name: "badge", opacity: 0).transform(base) == nil)
        let drawn = try #require(OverlayImageTransformer(overlay: badge, name: "badge", gravity: .bottomRight).transform(base)).bitmap
        #expect(drawn.rgba8(x: 4, y: 2) == .black && drawn.rgba8(x: 3, y: 1) == .black)
        #expect(drawn.rgba8(x: 2, y: 2) == numbered.rgba8(x: 2, y: 2))
        let half = try #require(
            OverlayImageTransformer(
                overlay: Image(bitmap: Bitmap.solid(1, 1, .white)), name: "w",
                gravity: .topLeft, offsetX: 1, offsetY: 1, opacity: 0.5
            )
            .transform(Image(bitmap: Bitmap.solid(3, 3, .black)))
        ).bitmap
        #expect(half.rgba8(x: 1, y: 1) == RGBA8(red: 128, green: 128, blue: 128))
        #expect(half.rgba8(x: 0, y: 0) == .black)
    }

    @Test func overlaysAreSizedAgainstTheImageAndSpreadAsThumborLaysThem() throws {
        // thumbor's calc_watermark_size: the box from the fractions, the other side from the
        // overlay's aspect, each side rounded half to even.
        let overlay = PixelSize(width: 60, height: 40)
        let image = PixelSize(width: 200, height: 133)
        #expect(OverlayScale(width: 0.4, height: nil).size(of: overlay, on: image) == PixelSize(width: 80, height: 53))
        #expect(OverlayScale(width: nil, height: 0.5).size(of: overlay, on: image) == PixelSize(width: 100, height: 66))
        #expect(OverlayScale(width: 0.3, height: 0.3).size(of: overlay, on: image) == PixelSize(width: 60, height: 40))
        #expect(OverlayScale(width: 1, height: 0.1).size(of: overlay, on: image) == PixelSize(width: 20, height: 13))
        #expect(OverlayScale(width: nil, height: nil).size(of: overlay, on: image) == overlay)
        // repeat: whole copies with the spare pixels shared between the gaps; fewer than two
        // that fit: as many as cover the side, 10 pixels shared; more than 100 in all: 6 a side.
        #expect(OverlayTiling.spreadStarts(length: 200, tile: 60, capped: false) == [0, 70, 140])
        #expect(OverlayTiling.spreadStarts(length: 100, tile: 60, capped: false) == [0, 70])
        #expect(OverlayTiling.spreadStarts(length: 50, tile: 60, capped: false) == [0])
        #expect(OverlayTiling.spreadStarts(length: 100, tile: 7, capped: true) == [0, 7 + 11, 2 * 18, 3 * 18, 4 * 18, 5 * 18])
        // A negative spare overlaps the copies (Python's floor division).
        #expect(OverlayTiling.spreadStarts(length: 30, tile: 20, capped: true) == [0, 10])
        var spread = OverlayImageTransformer(overlay: Image(bitmap: Bitmap.solid(2, 2, .black)), name: "b", gravity: .topLeft)
        spread.tiling = .spread(horizontal: true, vertical: false)
        let drawn = try #require(spread.transform(Image(bitmap: Bitmap.solid(7, 3, .white)))).bitmap
        // 3 across (1 spare pixel over 2 gaps: none), at the top.
        #expect([0, 1, 2, 3, 4, 5].allSatisfy { drawn.rgba8(x: $0, y: 1) == .black })
        #expect(drawn.rgba8(x: 6, y: 0) == .white && drawn.rgba8(x: 0, y: 2) == .white)
        #expect(spread.key.hasSuffix("-spreadx"))
        // imgproxy's re: copies side by side from the top-left, the offset the space between
        // them (half of it before the first).
        var grid = OverlayImageTransformer(overlay: Image(bitmap: Bitmap.solid(2, 2, .black)), name: "b", offsetX: 2)
        grid.tiling = .grid
        let tiled = try #require(grid.transform(Image(bitmap: Bitmap.solid(9, 3, .white)))).bitmap
        #expect([1, 2, 5, 6].allSatisfy { tiled.rgba8(x: $0, y: 0) == .black && tiled.rgba8(x: $0, y: 2) == .black })
        #expect([0, 3, 4, 7, 8].allSatisfy { tiled.rgba8(x: $0, y: 1) == .white })
        #expect(grid.key.hasSuffix("-grid"))
    }

    @Test func aBlurredFillIsThePictureBlurredAndStretchedUnderIt() throws {
        // Left half black, right half white: blurred, the canvas runs from dark on the left
        // to light on the right; the picture itself sits untouched in the middle.
        let picture = Bitmap.painted(20, 10) { x, _ in x < 10 ? .black : .white }
        var extend = ExtendingImageTransformer(size: PixelSize(width: 60, height: 10))
        extend.fillsWithBlurredPicture = true
        #expect(extend.key == "extend-60x10-center-bgblur")
        let filled = try #require(extend.transform(Image(bitmap: picture))).bitmap
        #expect(filled.size == PixelSize(width: 60, height: 10))
        #expect(filled.rgba8(x: 20, y: 5) == .black && filled.rgba8(x: 39, y: 5) == .white)
        let (left, right) = (filled.rgba8(x: 0, y: 5), filled.rgba8(x: 59, y: 5))
        #expect(left.alpha == 255 && right.alpha == 255)
        // A radius of 50 over 20 pixels, edges repeated: the blur keeps only a slope.
        #expect(left.red < right.red && (40...215).contains(Int(left.red)) && (40...215).contains(Int(right.red)), "\(left) \(right)")
        #expect(try TransformSpec("extend=60x10,center,bg=blur").transformers.first?.key == extend.key)
    }

    @Test func sixteenBitImagesStaySixteenBit() throws {
        let deep = Image(bitmap: Bitmap.painted16(30, 20) { x, _ in [UInt16(x * 2000), 1234, 60000, 65535] })
        let transformers: [any ImageTransformer] = [
            ResizingImageTransformer(size: PixelSize(width: 15, height: 15)), CroppingImageTransformer(size: PixelSize(width: 5, height: 5), gravity: .center),
            RoundedCornersImageTransformer(radius: 4), CircleImageTransformer(), RotatingImageTransformer(degrees: 33),
            FlippingImageTransformer(horizontal: true), TintImageTransformer(colour: .black),
            GrayscaleImageTransformer(), ColorControlsImageTransformer(brightness: 0.1),
            GaussianBlurImageTransformer(sigma: 2), SharpeningImageTransformer(),
            OverlayImageTransformer(overlay: Image(bitmap: Bitmap.solid(3, 3, .white)), name: "w"),
        ]
        for transformer in transformers {
            let result = try #require(transformer.transform(deep), "\(transformer.key)")
            #expect(result.bitmap.pixelFormat == .rgba16, "\(transformer.key)")
        }
        let blurred = try #require(GaussianBlurImageTransformer(sigma: 3).transform(deep)).bitmap
        #expect(blurred.channels16(x: 10, y: 10)[1] == 1234)
    }
}
