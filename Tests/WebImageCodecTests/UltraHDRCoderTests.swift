import Foundation
import Testing
import WebImageCore
import WebImageCoders
@testable import WebImageJPEG
import WebImageTestSupport

/// The JPEG coder reads the HDR gain maps of the Ultra HDR corpus, keeps them with the
/// image, and writes them back as Ultra HDR (MPF index, metadata, the map's JPEG).
@Suite(Corpus.required, Corpus.skippedUnderThreadSanitizer)
struct UltraHDRCoderTests {
    /// Every sample's map is found (through a stale MPF too), with its size and channels;
    /// Apple's own gain maps and the truncated file give none, and the primary is intact.
    @Test(arguments: UltraHDRSamples.all)
    func theGainMapIsRead(_ sample: UltraHDRSamples.Sample) throws {
        let data = try Corpus.data(sample.corpusPath)
        let decoded = Result { () throws(ImageError) in try JPEGCoder().decode(data, options: ImageDecodeOptions()) }
        guard let expected = sample.gainMapSize else {
            if case .success(let image) = decoded { #expect(image.gainMap == nil) }
            if case .failure(let error) = decoded { #expect(error.code == .badImageData) }
            return
        }
        let image = try decoded.get()
        let gainMap = try #require(image.gainMap, "\(sample)")
        let upright = image.orientation.swapsWidthAndHeight ? expected.transposed : expected
        #expect(gainMap.pixelSize == upright)
        #expect(gainMap.metadata.channelCount == sample.channels)
        #expect((gainMap.metadata.headroom ?? 0) > 0, "\(sample): no headroom")
        #expect(gainMap.metadata.gainMapXMP != nil || gainMap.metadata.gainMapISO != nil)
    }

    /// The truncated file's primary still decodes as far as its bytes go, with no map.
    @Test func theTruncatedFileAnswersItsPrimary() throws {
        let data = try Corpus.data("ultrahdr-samples/pillow/ultrahdr-truncated.jpg")
        let image = try #require(try JPEGCoder().decodeIncrementally(data, isComplete: false, options: ImageDecodeOptions()))
        #expect(image.pixelSize.width > 0)
        #expect(image.gainMap == nil)
    }

    /// An EXIF orientation turns the map with the primary: the sample with an EXIF segment
    /// saying "turn a quarter clockwise" put in front (the MPF index and the map move
    /// together, so the index's offsets still hold).
    @Test func theEXIFOrientationTurnsTheMap() throws {
        let data = try Corpus.data("ultrahdr-samples/hdr-canvas/red-ultrahdr.jpeg")
        let upright = try JPEGCoder().decode(data, options: ImageDecodeOptions())
        let uprightMap = try #require(upright.gainMap).bitmap
        // Exif, a little-endian TIFF header, one IFD entry: Orientation (0x0112), SHORT, 1, 6.
        let tiff: [UInt8] = [
            0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0x01, 0x00, 0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        ]
        let payload = Array("Exif\0\0".utf8) + tiff
        let segment: [UInt8] = [0xFF, 0xE1, 0x00, UInt8(payload.count + 2)] + payload
        let turned = try JPEGCoder().decode(Data(data.prefix(2) + segment + data.dropFirst(2)), options: ImageDecodeOptions())
        #expect(turned.orientation == .right)
        let map = try #require(turned.gainMap).bitmap
        #expect(map.size == uprightMap.size.transposed)
        #expect(turned.pixelSize == upright.pixelSize.transposed)
        // A clockwise quarter turn puts the bottom-left corner at the top left.
        #expect(map.rgba8(x: 0, y: 0) == uprightMap.rgba8(x: 0, y: uprightMap.height - 1))
        #expect(map.rgba8(x: map.width - 1, y: 0) == uprightMap.rgba8(x: 0, y: 0))
    }

    /// A thumbnail decode (shrink-on-load) decodes the map at the primary's scale.
    @Test(arguments: UltraHDRSamples.withGainMaps)
    func aThumbnailDecodeShrinksTheMapInStep(_ sample: UltraHDRSamples.Sample) throws {
        let data = try Corpus.data(sample.corpusPath)
        let full = try JPEGCoder().decode(data, options: ImageDecodeOptions())
        let fullMap = try #require(full.gainMap)
        let thumbnail = try JPEGCoder().decode(data, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 160, height: 160)))
        let map = try #require(thumbnail.gainMap, "\(sample)")
        #expect(
            UltraHDRSamples.follows(map: map.pixelSize, primary: thumbnail.pixelSize, sourceMap: fullMap.pixelSize, sourcePrimary: full.pixelSize),
            "\(sample): \(map.pixelSize) for \(thumbnail.pixelSize)")
    }

    /// Written back, the file is Ultra HDR: an MPF index whose second entry points at a
    /// JPEG running to the end of the file, the primary's announcements as the source's,
    /// and the map, decoded on its own by libjpeg, of the map's size.
    @Test(arguments: UltraHDRSamples.withGainMaps)
    func theGainMapIsWrittenBack(_ sample: UltraHDRSamples.Sample) throws {
        let data = try Corpus.data(sample.corpusPath)
        let source = try JPEGCoder().decode(data, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 300, height: 300)))
        let sourceMap = try #require(source.gainMap)
        let written = try JPEGCoder().encode(source, as: .jpeg, options: ImageEncodeOptions(quality: 0.85))
        let container = try #require(UltraHDRContainer(written), "\(sample): no MPF")
        try #require(container.entries.count == 2)
        let (primary, gainMap) = (container.entries[0], container.entries[1])
        #expect(primary.fileOffset == 0)
        #expect(primary.size == gainMap.fileOffset)
        #expect(gainMap.fileOffset + gainMap.size == written.count)
        let mapBytes = written[gainMap.fileOffset...]
        #expect(mapBytes.starts(with: [0xFF, 0xD8, 0xFF]))
        #expect(written[..<primary.size].suffix(2) == Data([0xFF, 0xD9]))
        if sourceMap.metadata.primaryAnnouncesXMP {
            #expect(container.primaryXMP.contains { $0.contains("hdrgm:Version=\"1.0\"") && $0.contains("Item:Length=\"\(gainMap.size)\"") })
        }
        #expect(container.primaryHasISO == (sourceMap.metadata.primaryISO != nil))
        let alone = try JPEGCoder().decode(Data(mapBytes), options: ImageDecodeOptions())
        #expect(alone.pixelSize == sourceMap.pixelSize)
        let mapText = String(decoding: mapBytes.prefix(70_000), as: UTF8.self)
        if sourceMap.metadata.gainMapXMP != nil { #expect(mapText.contains("hdr-gain-map")) }
        if sourceMap.metadata.gainMapISO != nil { #expect(mapText.contains("urn:iso:std:iso:ts:21496:-1")) }

        let reread = try JPEGCoder().decode(written, options: ImageDecodeOptions())
        let rereadMap = try #require(reread.gainMap)
        #expect(rereadMap.pixelSize == sourceMap.pixelSize)
        #expect(rereadMap.metadata.channelCount == sourceMap.metadata.channelCount)
        #expect(rereadMap.metadata.headroom == sourceMap.metadata.headroom)
    }

    /// With `keepsGainMap` off, and in any other format, the output is a plain picture.
    @Test func theMapCanBeLeftOut() throws {
        let data = try Corpus.data("ultrahdr-samples/hdr-canvas/red-ultrahdr.jpeg")
        let source = try JPEGCoder().decode(data, options: ImageDecodeOptions())
        #expect(source.gainMap != nil)
        var options = ImageEncodeOptions()
        options.keepsGainMap = false
        let plain = try JPEGCoder().encode(source, as: .jpeg, options: options)
        #expect(UltraHDRContainer(plain) == nil)
        #expect(try JPEGCoder().decode(plain, options: ImageDecodeOptions()).gainMap == nil)
        let png = try ImageCodersManager.shared.encode(source, as: .png, options: ImageEncodeOptions())
        #expect(try ImageCodersManager.shared.decode(png, options: ImageDecodeOptions()).gainMap == nil)
    }

    /// Reading a file decodes it as its bytes do: the same gain map.
    @Test func aFileDecodeReadsTheGainMap() throws {
        let url = Corpus.url("ultrahdr-samples/pillow/ultrahdr.jpg")
        let image = try #require(try JPEGCoder.decodeFile(atPath: url.path, options: ImageDecodeOptions()))
        let bytes = try JPEGCoder().decode(Data(contentsOf: url), options: ImageDecodeOptions())
        #expect(image.gainMap == bytes.gainMap)
        #expect(image.gainMap != nil)
    }
}
