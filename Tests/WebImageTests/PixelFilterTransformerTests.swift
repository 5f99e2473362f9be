import Foundation
import Testing
@testable import WebImage
@testable import WebImageProcessing
import WebImageTestSupport

/// The channel offset, histogram equalization, seeded noise and convolution transformers,
/// the mean-colour canvas and the resize's covering, turned-box and half-to-even forms:
/// each against values thumbor 7.8's own C filters compute for the same pixels (recorded).
@Suite struct PixelFilterTransformerTests {
    /// An RGB bitmap, opaque, from `channels` (three a pixel), `width` pixels a row.
    static func bitmap(_ channels: [UInt8], width: Int) -> Bitmap {
        let count = channels.count / 3
        return Bitmap.painted(width, count / width) { x, y in
            let index = (y * width + x) * 3
            return RGBA8(red: channels[index], green: channels[index + 1], blue: channels[index + 2])
        }
    }

    /// The RGB channels of `image`'s first frame, three a pixel.
    static func channels(_ image: Image?) -> [UInt8] {
        guard let bitmap = image?.bitmap else { return [] }
        var result: [UInt8] = []
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let pixel = bitmap.rgba8(x: x, y: y)
                result += [pixel.red, pixel.green, pixel.blue]
            }
        }
        return result
    }

    @Test func channelOffsetsAddToEachChannelAndClamp() throws {
        let image = Image(bitmap: Self.bitmap([100, 150, 200, 250, 10, 30], width: 2))
        let moved = ChannelOffsetImageTransformer(red: 0.2, green: 0, blue: -0.2).transform(image)
        #expect(Self.channels(moved) == [151, 150, 149, 255, 10, 0])
        #expect(ChannelOffsetImageTransformer(red: 0, green: 0, blue: 0).transform(image) == nil)
        #expect(try TransformSpec("rgb=0.2,0,-0.2").transformers.first?.key == "rgb-0.2,0,-0.2")
        #expect(throws: TransformSpecError.self) { try TransformSpec("rgb=2,0,0") }
        #expect(throws: TransformSpecError.self) { try TransformSpec("rgb=0.1,0") }
    }

    @Test func equalizationIsThumbors() throws {
        // thumbor's _equalize on these four pixels: the blue channel, absent at the lowest
        // value of the picture (10, red's), counts from 0.
        let image = Image(bitmap: Self.bitmap([10, 50, 40, 10, 50, 40, 20, 50, 40, 30, 60, 40], width: 2))
        let equalized = HistogramEqualizingImageTransformer().transform(image)
        #expect(Self.channels(equalized) == [0, 191, 255, 0, 191, 255, 127, 191, 255, 255, 255, 255])
        let flat = Image(bitmap: Bitmap.solid(3, 3, RGBA8(red: 9, green: 9, blue: 9)))
        #expect(HistogramEqualizingImageTransformer().transform(flat)?.bitmap == flat.bitmap)
    }

    @Test func theGeneratorIsTheCLibrarys() {
        // glibc's random() after srandom(1) and srandom(7), recorded.
        func draws(_ seed: UInt32) -> [Int] {
            var random = AdditiveFeedbackRandom(seed: seed)
            var values: [Int] = []
            for _ in 0..<3 { values.append(random.next()) }
            return values
        }
        #expect(draws(1) == [1_804_289_383, 846_930_886, 1_681_692_777])
        #expect(draws(7) == [1_045_618_677, 1_863_967_299, 1_272_579_899])
        #expect(draws(0) == draws(1))
    }

    @Test func seededNoiseIsThumbors() throws {
        // thumbor's _noise with an amount of 10 and the seed 53, recorded.
        let channels: [UInt8] = Array([[UInt8]](repeating: [128, 128, 128], count: 4).joined()) + [250, 5, 128, 250, 5, 128]
        let image = Image(bitmap: Self.bitmap(channels, width: 3))
        let noisy = NoiseImageTransformer(amount: 10, seed: 53).transform(image)
        #expect(Self.channels(noisy) == [131, 131, 131, 129, 129, 129, 129, 129, 129, 124, 124, 124, 247, 2, 125, 254, 9, 132])
        #expect(NoiseImageTransformer(amount: 0, seed: 53).transform(image) == nil)
        #expect(throws: TransformSpecError.self) { try TransformSpec("noise=101") }
        #expect(throws: TransformSpecError.self) { try TransformSpec("noise=10,seed=-1") }
    }

    @Test func convolutionIsThumbors() throws {
        var source: [UInt8] = []
        for y in 0..<3 {
            for x in 0..<3 { source += [UInt8(x * 100), UInt8(y * 100), UInt8(37 * (x + y))] }
        }
        let image = Image(bitmap: Self.bitmap(source, width: 3))
        // thumbor's _convolution, recorded: a normalized 3 × 3 blur, and an unnormalized
        // 3 × 1 edge kernel (edge pixels repeated, negative sums held at 0).
        let blurred = ConvolvingImageTransformer(kernel: [1, 2, 1, 2, 4, 2, 1, 2, 1], columns: 3).transform(image)
        #expect(Self.channels(blurred) == [25, 25, 18, 100, 25, 46, 175, 25, 74, 25, 100, 46, 100, 100, 74, 175, 100, 101, 25, 175, 74, 100, 175, 101, 175, 175, 129])
        let edges = ConvolvingImageTransformer(kernel: [-1, 0, 1], columns: 3, normalizes: false).transform(image)
        #expect(Self.channels(edges) == [100, 0, 37, 200, 0, 74, 100, 0, 37, 100, 0, 37, 200, 0, 74, 100, 0, 37, 100, 0, 37, 200, 0, 74, 100, 0, 37])
        #expect(try TransformSpec("convolution=-1;0;1,3,unnormalized").transformers.first?.key == "convolution--1;0;1-c3-unnormalized")
        // Hostile kernels are refused by the spec: even sides, too many weights, huge ones.
        #expect(throws: TransformSpecError.self) { try TransformSpec("convolution=1;1,2") }
        #expect(throws: TransformSpecError.self) { try TransformSpec("convolution=1;1;1;1;1;1,3") }
        #expect(throws: TransformSpecError.self) { try TransformSpec("convolution=\(Array(repeating: "1", count: 121).joined(separator: ";")),11") }
        #expect(throws: TransformSpecError.self) { try TransformSpec("convolution=1;5000;1,3") }
        #expect(ConvolvingImageTransformer(kernel: [1, 1], columns: 2).transform(image) == nil)
    }

    @Test func theMeanColourFillsTheCanvas() throws {
        let image = Image(bitmap: Self.bitmap([10, 20, 30, 21, 40, 61], width: 2))
        let extended = try #require(try TransformSpec("extend=4x1,center,bg=auto").pipeline.transform(image))
        #expect(extended.bitmap.rgba8(x: 0, y: 0) == RGBA8(red: 15, green: 30, blue: 45))
        #expect(extended.bitmap.rgba8(x: 1, y: 0) == RGBA8(red: 10, green: 20, blue: 30))
        #expect(extended.bitmap.rgba8(x: 3, y: 0) == RGBA8(red: 15, green: 30, blue: 45))
    }

    @Test func resizesCoverTurnAndRoundAsThumborDoes() throws {
        let photo = Image(bitmap: Bitmap.solid(300, 200, .white))
        func size(_ spec: String, _ image: Image) throws -> PixelSize? {
            try TransformSpec(spec).pipeline.transform(image)?.pixelSize
        }
        // full-fit-in: covering the box, nothing cropped, enlarging too.
        #expect(try size("resize=100x100,outside", photo) == PixelSize(width: 150, height: 100))
        #expect(try size("resize=600x100,outside", photo) == PixelSize(width: 600, height: 400))
        // adaptive-fit-in: a portrait box turned to a landscape picture.
        #expect(try size("resize=100x200,inside,adaptive", photo) == PixelSize(width: 150, height: 100))
        #expect(try size("resize=100x200,inside", photo) == PixelSize(width: 100, height: 67))
        let portrait = Image(bitmap: Bitmap.solid(200, 300, .white))
        #expect(try size("resize=200x100,inside,adaptive", portrait) == PixelSize(width: 100, height: 150))
        #expect(throws: TransformSpecError.self) { try TransformSpec("resize=100,adaptive") }
        // 112.5 rounds to even with halfeven, up without.
        let alpha = Image(bitmap: Bitmap.solid(160, 120, .white))
        #expect(try size("resize=150,halfeven", alpha) == PixelSize(width: 150, height: 112))
        #expect(try size("resize=150", alpha) == PixelSize(width: 150, height: 113))
        #expect(try size("resize=x60,halfeven", Image(bitmap: Bitmap.solid(125, 120, .white))) == PixelSize(width: 62, height: 60))
        // The side comes from the source's own size: no reduced decode.
        #expect(try TransformSpec("resize=150,halfeven").decodeOptions.thumbnailPixelSize == nil)
        #expect(try TransformSpec("resize=150").decodeOptions.thumbnailPixelSize != nil)
    }

    @Test func aPointOfTheSourceAnchorsTheWindow() throws {
        // Red left of x = 100; a window centred on (230, 80) starts at x = 100 (held in the
        // picture), where the centre's starts at 50.
        let photo = Image(bitmap: Bitmap.painted(300, 200) { x, _ in x < 100 ? RGBA8(red: 255, green: 0, blue: 0) : RGBA8(red: 0, green: 0, blue: 255) })
        let focal = try #require(try TransformSpec("resize=100x100,fill,gravity=point:230:80").pipeline.transform(photo))
        #expect(focal.pixelSize == PixelSize(width: 100, height: 100))
        #expect(focal.bitmap.rgba8(x: 2, y: 50).blue > 200)
        let centred = try #require(try TransformSpec("resize=100x100,fill").pipeline.transform(photo))
        #expect(centred.bitmap.rgba8(x: 2, y: 50).red > 200)
        #expect(try TransformSpec("resize=100x100,fill,gravity=point:230:80").decodeOptions.thumbnailPixelSize == nil)
        #expect(throws: TransformSpecError.self) { try TransformSpec("resize=100x100,fill,gravity=point:-1:5") }
    }
}
