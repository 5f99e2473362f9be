import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
@testable import WebImageJPEG
import WebImageTestSupport

/// `JPEGCoder.decodeFile(atPath:options:)` reads a JPEG from its file a buffer at a time;
/// what it answers must be what decoding the file's bytes answers: the same pixels,
/// orientation and ICC profile, or the same error.
@Suite struct JPEGFileDecodingTests {
    /// The file's decode against the bytes' decode, for full size and a thumbnail.
    static func expectSameDecodes(of url: URL, sizes: [PixelSize?] = [nil, PixelSize(width: 97, height: 61)]) throws {
        let data = try Data(contentsOf: url)
        for size in sizes {
            let options = ImageDecodeOptions(thumbnailPixelSize: size)
            let fromBytes = Result { () throws(ImageError) in try JPEGCoder().decode(data, options: options) }
            let fromFile = Result { () throws(ImageError) in try JPEGCoder.decodeFile(atPath: url.path, options: options) }
            switch (fromBytes, fromFile) {
            case (.success(let expected), .success(let image?)):
                #expect(image.bitmap == expected.bitmap, "\(url.lastPathComponent) at \(String(describing: size))")
                #expect(image.orientation == expected.orientation, "\(url.lastPathComponent)")
                #expect(image.colorProfile == expected.colorProfile, "\(url.lastPathComponent)")
            case (.failure(let expected), .failure(let error)):
                #expect(error.code == expected.code, "\(url.lastPathComponent): \(error) against \(expected)")
            default:
                Issue.record("\(url.lastPathComponent) at \(String(describing: size)): \(fromFile) against \(fromBytes)")
            }
        }
    }

    /// A JPEG written by the coder itself, with an ICC profile, whole and cut short.
    @Test func aFileDecodesAsItsBytesWholeAndTruncated() throws {
        let scratch = TemporaryDirectory(prefix: "jpeg-file")
        var bitmap = Bitmap(width: 301, height: 203)
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let offset = (y * bitmap.width + x) * 4
                bitmap.pixels[offset..<offset + 4] = [UInt8(x & 0xFF), UInt8(y & 0xFF), UInt8((x * y) & 0xFF), 255]
            }
        }
        let profile = try #require(ColorProfile(data: LittleCMSReference.displayP3()))
        let image = Image(bitmap: bitmap, colorProfile: profile)
        let jpeg = try JPEGCoder().encode(image, as: .jpeg, options: ImageEncodeOptions(quality: 0.8, colorProfile: .keep))
        let whole = scratch.appending("whole.jpg")
        try jpeg.write(to: whole)
        try Self.expectSameDecodes(of: whole)
        let decoded = try #require(try JPEGCoder.decodeFile(atPath: whole.path, options: ImageDecodeOptions()))
        #expect(decoded.colorProfile == profile)
        let cut = scratch.appending("cut.jpg")
        try jpeg.prefix(jpeg.count * 2 / 3).write(to: cut)
        #expect(throws: ImageError.self) { try JPEGCoder.decodeFile(atPath: cut.path, options: ImageDecodeOptions()) }
        try Self.expectSameDecodes(of: cut)
    }

    /// What is not a JPEG file is not decoded here: the caller reads it some other way.
    @Test func aMissingFileOrAnotherFormatAnswersNil() throws {
        let scratch = TemporaryDirectory(prefix: "jpeg-file-other")
        let png = scratch.appending("a.png")
        try ImageCodersManager.shared.encode(Image(bitmap: Bitmap(width: 4, height: 4)), as: .png).write(to: png)
        #expect(try JPEGCoder.decodeFile(atPath: png.path, options: ImageDecodeOptions()) == nil)
        let empty = scratch.appending("empty.jpg")
        try Data().write(to: empty)
        #expect(try JPEGCoder.decodeFile(atPath: empty.path, options: ImageDecodeOptions()) == nil)
        #expect(try JPEGCoder.decodeFile(atPath: scratch.appending("none.jpg").path, options: ImageDecodeOptions()) == nil)
    }

    /// Every corpus JPEG: EXIF orientations, ICC profiles, CMYK, progressive, damaged.
    @Test(Corpus.required, Corpus.skippedUnderThreadSanitizer, arguments: ["exif-orientation-examples", "libjpeg-turbo-testimages", "sdwebimage"])
    func everyCorpusJPEGDecodesAsItsBytes(folder: String) throws {
        let files = Corpus.files(in: folder, extensions: ["jpg", "jpeg"])
        #expect(!files.isEmpty)
        for file in files { try Self.expectSameDecodes(of: file) }
    }
}
