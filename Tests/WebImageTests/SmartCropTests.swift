import Foundation
import Testing
import WebImage

/// The smart crop keeps the interesting part of synthetic pictures whose subject is off
/// the centre.
@Suite("Smart crop")
struct SmartCropTests {
    /// A 300×200 flat grey-blue field with a skin-coloured disc of radius 25 centred at
    /// (`x`, `y`).
    static func skinDisc(x: Int, y: Int) -> Bitmap {
        var pixels = [UInt8]()
        for row in 0..<200 {
            for column in 0..<300 {
                let inside = (column - x) * (column - x) + (row - y) * (row - y) <= 25 * 25
                pixels += inside ? [224, 172, 140, 255] : [96, 110, 128, 255]
            }
        }
        return Bitmap(width: 300, height: 200, pixels: pixels)
    }

    /// A 300×200 field of soft horizontal waves (no sharp edge) with a sharp 40×40 checker
    /// of 5-pixel squares at (`x`, `y`).
    static func checkerOnBlur(x: Int, y: Int) -> Bitmap {
        var pixels = [UInt8]()
        for row in 0..<200 {
            for column in 0..<300 {
                let inside = (x..<x + 40).contains(column) && (y..<y + 40).contains(row)
                if inside {
                    let white = ((column - x) / 5 + (row - y) / 5).isMultiple(of: 2)
                    pixels += white ? [240, 240, 240, 255] : [20, 20, 20, 255]
                } else {
                    let wave = UInt8(110 + 30 * sin(Double(column) / 40) + 20 * cos(Double(row) / 35))
                    pixels += [wave, wave, UInt8(min(255, Int(wave) + 10)), 255]
                }
            }
        }
        return Bitmap(width: 300, height: 200, pixels: pixels)
    }

    /// A 300×200 flat field with a 40×40 patch of pseudo-random grey levels at (`x`, `y`).
    static func noisePatch(x: Int, y: Int) -> Bitmap {
        var pixels = [UInt8]()
        var state: UInt32 = 12345
        for row in 0..<200 {
            for column in 0..<300 {
                state = state &* 1_664_525 &+ 1_013_904_223
                let inside = (x..<x + 40).contains(column) && (y..<y + 40).contains(row)
                let level = inside ? UInt8(state >> 24) : 128
                pixels += [level, level, level, 255]
            }
        }
        return Bitmap(width: 300, height: 200, pixels: pixels)
    }

    /// Whether a window of `size` at `origin` holds the rectangle at (`x`, `y`) of
    /// `width` × `height`.
    static func contains(_ origin: (x: Int, y: Int), _ size: PixelSize, x: Int, y: Int, width: Int, height: Int) -> Bool {
        origin.x <= x && origin.y <= y && origin.x + size.width >= x + width && origin.y + size.height >= y + height
    }

    @Test(arguments: [(240, 60), (50, 150), (260, 170), (30, 30)])
    func attentionKeepsASkinColouredDisc(x: Int, y: Int) throws {
        let window = PixelSize(width: 100, height: 100)
        let origin = try SmartCropStrategy.attention.origin(of: window, in: Self.skinDisc(x: x, y: y))
        #expect(Self.contains(origin, window, x: max(0, x - 25), y: max(0, y - 25), width: 50, height: 50), "\(origin)")
        let centre = ImageGravity.center.origin(of: window, in: PixelSize(width: 300, height: 200))
        #expect(!Self.contains(centre, window, x: x - 25, y: y - 25, width: 50, height: 50), "the centre would miss it")
    }

    @Test(arguments: [(20, 140), (230, 20), (240, 150)])
    func attentionKeepsASharpPatchOnASoftField(x: Int, y: Int) throws {
        let window = PixelSize(width: 80, height: 80)
        let origin = try SmartCropStrategy.attention.origin(of: window, in: Self.checkerOnBlur(x: x, y: y))
        #expect(Self.contains(origin, window, x: x, y: y, width: 40, height: 40), "\(origin)")
    }

    @Test(arguments: [(20, 140), (230, 20), (240, 150)])
    func entropyKeepsADetailedPatch(x: Int, y: Int) throws {
        let window = PixelSize(width: 80, height: 80)
        let origin = try SmartCropStrategy.entropy.origin(of: window, in: Self.noisePatch(x: x, y: y))
        #expect(Self.contains(origin, window, x: x, y: y, width: 40, height: 40), "\(origin)")
    }

    /// A 32 × 32 picture, which the attention map reads cell for cell: a grey-blue field,
    /// a black 4 × 4 square at (2, 2), one bright skin-coloured cell at (25, 6) and a red
    /// 5 × 5 square centred at (8, 22).
    static let attentionCells: Bitmap = {
        var bitmap = Bitmap(width: 32, height: 32, pixels: [UInt8](repeating: 0, count: 32 * 32 * 4))
        for y in 0..<32 {
            for x in 0..<32 {
                let colour: [UInt8] =
                    switch (x, y) {
                    case (2..<6, 2..<6): [0, 0, 0, 255]
                    case (25, 6): [224, 172, 140, 255]
                    case (6..<11, 20..<25): [200, 40, 40, 255]
                    default: [90, 100, 110, 255]
                    }
                bitmap.pixels.replaceSubrange((y * 32 + x) * 4..<(y * 32 + x + 1) * 4, with: colour)
            }
        }
        return bitmap
    }()

    /// The windows `vips smartcrop IN OUT W H --interesting attention` (libvips 8.14)
    /// cuts from that picture: a small window (a narrow blur) goes to the single bright
    /// cell, its strong edges outweighing the rest; a large one (a wide blur) to the red
    /// square, whose colour covers more cells.
    @Test(arguments: [(8, 8, 21, 2), (16, 16, 16, 0), (20, 20, 0, 12), (30, 8, 0, 18), (8, 30, 4, 2)])
    func attentionCutsTheWindowLibvipsCuts(width: Int, height: Int, x: Int, y: Int) throws {
        let origin = try SmartCropStrategy.attention.origin(of: PixelSize(width: width, height: height), in: Self.attentionCells)
        #expect(origin == (x, y))
    }

    @Test func theWindowStaysInsideAndFollowsTheFrames() throws {
        let disc = Self.skinDisc(x: 280, y: 190)
        let origin = try SmartCropStrategy.attention.origin(of: PixelSize(width: 300, height: 50), in: disc)
        #expect(origin.x == 0 && origin.y == 150)
        // A window larger than the picture along one axis is centred along it.
        let wide = try SmartCropStrategy.attention.origin(of: PixelSize(width: 400, height: 50), in: disc)
        #expect(wide.x == -50 && (0...150).contains(wide.y))
        // Every frame of an animation is cut at the first frame's window.
        let flat = Bitmap(width: 300, height: 200, pixels: [UInt8](repeating: 128, count: 300 * 200 * 4))
        let image = Image(frames: [ImageFrame(bitmap: disc, duration: 0.1), ImageFrame(bitmap: flat, duration: 0.1)], loopCount: 0)
        let cropped = try #require(CroppingImageTransformer(size: PixelSize(width: 60, height: 60), anchor: .smart(.attention)).transform(image))
        #expect(cropped.frames.count == 2)
        #expect(cropped.frames[0].bitmap.rgba8(x: 50, y: 50) == RGBA8(red: 224, green: 172, blue: 140))
    }

    @Test func theSpecReadsSmartCrops() throws {
        let fill = try #require(TransformSpec("resize=100x100,fill,smart").transformers.first as? ResizingImageTransformer)
        #expect(fill.anchor == .smart(.attention) && fill.key.hasSuffix("-smart"))
        let crop = try #require(TransformSpec("crop=50x50,smart=entropy").transformers.first as? CroppingImageTransformer)
        #expect(crop.placement == .anchor(.smart(.entropy)))
        for bad in ["resize=100x100,smart", "resize=100,fill,smart", "crop=50x50,smart=faces", "resize=100x100,fill,smart,gravity=top"] {
            #expect(throws: TransformSpecError.self, "\(bad)") { try TransformSpec(bad) }
        }
    }
}
