#if JXL && ColorManagement
import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
import WebImageJXL
import WebImageTestSupport

/// Lossless JPEG → JPEG XL recompression on JPEGs made here: the `jbrd` box, `djxl`'s
/// byte-exact reconstruction, the metadata that is dropped and kept, and the JPEGs
/// refused.
@Suite(JXLReconstruction.required)
struct JXLRecompressionTests {
    let coder = JXLCoder(encodingEffort: 3)
    let scratch = TemporaryDirectory(prefix: "jxl-recompression")

    /// A 4:2:0 JPEG of a 67×45 gradient, not a whole number of blocks on either side.
    static func plainJPEG() throws -> Data {
        let bitmap = BMPCoderTests.gradient(width: 67, height: 45, alpha: false)
        return try JPEGCoder().encode(Image(bitmap: bitmap), as: .jpeg, options: ImageEncodeOptions(quality: 0.85))
    }

    /// A segment `marker` holding `payload`.
    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
    }

    /// `jpeg` with `segments` inserted after its first segment (the JFIF `APP0`).
    static func inserting(_ segments: [UInt8], into jpeg: Data) -> Data {
        let bytes = [UInt8](jpeg)
        let firstEnd = 4 + (Int(bytes[4]) << 8 | Int(bytes[5]))
        return Data(bytes[..<firstEnd] + segments + bytes[firstEnd...])
    }

    @Test func recompressesWithReconstructionDataThatRebuildsTheJPEGExactly() throws {
        let jpeg = try Self.plainJPEG()
        let jxl = try coder.recompress(jpeg: jpeg)
        #expect(ImageFormat(sniffing: jxl) == .jxl)
        #expect(JXLReconstruction.boxTypes(of: jxl).contains("jbrd"))
        #expect(try JXLReconstruction.jpeg(from: jxl, in: scratch.url) == jpeg)
        // libjxl decodes the same coefficients: the pixels agree with libjpeg-turbo's decode
        // up to the two libraries' inverse DCT and upsampling.
        let source = try JPEGCoder().decode(jpeg, options: ImageDecodeOptions())
        let decoded = try coder.decode(jxl, options: ImageDecodeOptions())
        #expect(decoded.pixelSize == source.pixelSize)
        let difference = try #require(ReferencePixels.maximumDifference(decoded.bitmap, source.bitmap))
        #expect(difference <= 8, "max difference \(difference)")
    }

    @Test func dropsEXIFXMPCommentsAndTrailingBytes() throws {
        let plain = try Self.plainJPEG()
        let metadata =
            Self.segment(0xE1, JPEGMetadataTests.exif(orientation: 1, bigEndian: true))
            + Self.segment(0xE1, JPEGMetadataTests.xmp(#"dc:rights="someone">"#))
            + Self.segment(0xED, Array("Photoshop 3.0\0".utf8) + [1, 2, 3])
            + Self.segment(0xFE, Array("a comment".utf8))
        let rich = Self.inserting(metadata, into: plain) + Data([0xFF, 0xD8, 0xFF, 0xD9])
        let jxl = try coder.recompress(jpeg: rich)
        let boxes = JXLReconstruction.boxTypes(of: jxl)
        #expect(boxes.contains("jbrd"))
        #expect(!boxes.contains("Exif") && !boxes.contains("xml "), "\(boxes)")
        // The rebuilt JPEG is the source without what the policy drops.
        #expect(try JXLReconstruction.jpeg(from: jxl, in: scratch.url) == plain)
    }

    @Test func anICCProfileIsKeptOnlyWhenAskedFor() throws {
        let bitmap = BMPCoderTests.gradient(width: 40, height: 24, alpha: false)
        let jpeg = try ColorProfileTests.jpeg(of: bitmap, profile: LittleCMSReference.displayP3())
        #expect(throws: JXLRecompressionError.colorProfileNeedsConversion) { try coder.recompress(jpeg: jpeg) }
        let jxl = try coder.recompress(jpeg: jpeg, colorProfile: .keep)
        #expect(try JXLReconstruction.jpeg(from: jxl, in: scratch.url) == jpeg)
        let decoded = try coder.decode(jxl, options: ImageDecodeOptions())
        #expect(decoded.colorProfile != nil)
    }

    @Test func anSRGBProfileIsDroppedAsItsConversionWould() throws {
        let bitmap = BMPCoderTests.gradient(width: 40, height: 24, alpha: false)
        let tagged = try ColorProfileTests.jpeg(of: bitmap, profile: LittleCMSReference.sRGB())
        let untagged = try ImageCodersManager.shared.encode(Image(bitmap: bitmap), as: .jpeg, options: ImageEncodeOptions(quality: 1))
        #expect(tagged != untagged)
        let jxl = try coder.recompress(jpeg: tagged)
        #expect(try JXLReconstruction.jpeg(from: jxl, in: scratch.url) == untagged)
    }

    /// libjxl 0.7 cannot represent this JPEG's colour data (`cjxl --lossless_jpeg=1`
    /// refuses it too); under the default policy its profile is refused first.
    @Test(Corpus.required) func libjxlRefusesTestICCProfileAndThePolicyRefusesItsProfile() throws {
        let jpeg = try Corpus.data("sdwebimage/TestICCProfile.jpg")
        #expect(throws: JXLRecompressionError.colorProfileNeedsConversion) { try coder.recompress(jpeg: jpeg) }
        do throws(JXLRecompressionError) {
            _ = try coder.recompress(jpeg: jpeg, colorProfile: .keep)
            Issue.record("libjxl 0.7 recompressed it")
        } catch {
            guard case .refused = error else {
                Issue.record("refused for another reason: \(error)")
                return
            }
        }
    }

    @Test func refusesWhatItCannotRecompressAsItIs() throws {
        let plain = try Self.plainJPEG()
        let turned = Self.inserting(Self.segment(0xE1, JPEGMetadataTests.exif(orientation: 6, bigEndian: false)), into: plain)
        #expect(throws: JXLRecompressionError.notUpright(.right)) { try coder.recompress(jpeg: turned) }
        #expect(throws: JXLRecompressionError.notJPEG) { try coder.recompress(jpeg: Data("not a jpeg".utf8)) }
        #expect(throws: JXLRecompressionError.self) { try coder.recompress(jpeg: plain.prefix(plain.count / 2)) }
        var limits = ImageDecodeOptions()
        limits.maxPixelCount = 100
        #expect(throws: JXLRecompressionError.self) { try coder.recompress(jpeg: plain, limits: limits) }
    }
}
#endif
