import Foundation
import Testing
@testable import WebImage
import WebImageTestSupport

/// Every geometric step carries an Ultra HDR sample's gain map in step with the primary,
/// and the JPEG written after it is still Ultra HDR with a map of the primary's shape;
/// colour steps leave the map as it is.
@Suite(Corpus.required, Corpus.skippedUnderThreadSanitizer)
struct GainMapGeometryTests {
    /// The geometric steps, by name.
    static let steps: [(String, any ImageTransformer)] = [
        ("resize", ResizingImageTransformer(width: 97)),
        ("resize-fill", ResizingImageTransformer(size: PixelSize(width: 60, height: 60), contentMode: .aspectFill)),
        ("crop", CroppingImageTransformer(x: 13, y: 7, size: PixelSize(width: 71, height: 45))),
        ("smart-crop", CroppingImageTransformer(size: PixelSize(width: 50, height: 50), anchor: .smart(.attention))),
        ("flip", FlippingImageTransformer(horizontal: true, vertical: false)),
        ("quarter-turn", RotatingImageTransformer(degrees: 90)),
        ("three-quarter-turn", RotatingImageTransformer(degrees: 270)),
        ("turn-30", RotatingImageTransformer(degrees: 30)),
        ("pad", PaddingImageTransformer(top: 10, right: 4, bottom: 0, left: 20, background: .white)),
        ("extend", ExtendingImageTransformer(size: PixelSize(width: 400, height: 400), background: .white)),
        ("circle", CircleImageTransformer()),
    ]

    /// A small decode of `sample`: the primary and its map.
    static func source(_ sample: UltraHDRSamples.Sample) throws -> Image {
        let data = try Corpus.data(sample.corpusPath)
        let image = try ImageCodersManager.shared.decode(data, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 240, height: 240)))
        try #require(image.gainMap != nil, "\(sample) has no gain map")
        return image
    }

    @Test(arguments: UltraHDRSamples.withGainMaps)
    func everyStepCarriesTheMapAndTheOutputStaysUltraHDR(_ sample: UltraHDRSamples.Sample) throws {
        let source = try Self.source(sample)
        let sourceMap = try #require(source.gainMap)
        for (name, step) in Self.steps {
            let result = try #require(step.transform(source), "\(sample) \(name)")
            let map = try #require(result.gainMap, "\(sample) \(name): the map was dropped")
            #expect(
                UltraHDRSamples.follows(map: map.pixelSize, primary: result.pixelSize, sourceMap: sourceMap.pixelSize, sourcePrimary: source.pixelSize),
                "\(sample) \(name): map \(map.pixelSize) for \(result.pixelSize)")
            #expect(map.metadata == sourceMap.metadata)
            let jpeg = try ImageCodersManager.shared.encode(result, as: .jpeg, options: ImageEncodeOptions(quality: 0.8))
            let container = try #require(UltraHDRContainer(jpeg), "\(sample) \(name): no MPF")
            try #require(container.entries.count == 2)
            let mapBytes = jpeg[container.entries[1].fileOffset...]
            let alone = try ImageCodersManager.shared.decode(Data(mapBytes), options: ImageDecodeOptions())
            #expect(alone.pixelSize == map.pixelSize, "\(sample) \(name)")
            let reread = try ImageCodersManager.shared.decode(jpeg, options: ImageDecodeOptions())
            #expect(reread.gainMap?.pixelSize == map.pixelSize, "\(sample) \(name)")
        }
    }

    /// A 1:1 map is cut to exactly the primary's region, and mirrored pixel for pixel.
    @Test func aCropAndAFlipMoveTheMapsPixelsWithThePrimarys() throws {
        let sample = try #require(UltraHDRSamples.all.first { $0.path.contains("seine_sdr_different") })
        let source = try ImageCodersManager.shared.decode(try Corpus.data(sample.corpusPath), options: ImageDecodeOptions())
        let sourceMap = try #require(source.gainMap).bitmap
        #expect(sourceMap.size == source.pixelSize)
        let cropped = try #require(CroppingImageTransformer(x: 120, y: 80, size: PixelSize(width: 100, height: 60)).transform(source))
        let croppedMap = try #require(cropped.gainMap).bitmap
        #expect(croppedMap.size == PixelSize(width: 100, height: 60))
        for (x, y) in [(0, 0), (99, 0), (50, 30), (99, 59)] {
            #expect(croppedMap.rgba8(x: x, y: y) == sourceMap.rgba8(x: 120 + x, y: 80 + y))
        }
        let flipped = try #require(FlippingImageTransformer(horizontal: true).transform(source))
        let flippedMap = try #require(flipped.gainMap).bitmap
        for (x, y) in [(0, 0), (17, 100), (399, 299)] {
            #expect(flippedMap.rgba8(x: x, y: y) == sourceMap.rgba8(x: 399 - x, y: y))
        }
        let turned = try #require(RotatingImageTransformer(degrees: 90).transform(source))
        let turnedMap = try #require(turned.gainMap).bitmap
        #expect(turnedMap.size == PixelSize(width: 300, height: 400))
        // A clockwise turn puts the source's bottom-left corner at the top left.
        #expect(turnedMap.rgba8(x: 0, y: 0) == sourceMap.rgba8(x: 0, y: 299))
    }

    /// Colour and filter steps keep the map as it was.
    @Test func colourStepsLeaveTheMap() throws {
        let sample = try #require(UltraHDRSamples.withGainMaps.first)
        let source = try Self.source(sample)
        for step in [GrayscaleImageTransformer(), GaussianBlurImageTransformer(sigma: 2)] as [any ImageTransformer] {
            let result = try #require(step.transform(source))
            #expect(result.gainMap == source.gainMap)
        }
    }
}
