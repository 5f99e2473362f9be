import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
import WebImageTestSupport

@Suite struct ImageFormatTests {
    @Test func sniffsEachSignature() {
        let samples: [(bytes: [UInt8], format: ImageFormat)] = [
            ([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10], .jpeg),
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0], .png),
            (Array("GIF89a".utf8), .gif),
            (Array("GIF87a".utf8), .gif),
            ([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0], .tiff),
            ([0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8], .tiff),
            (Array("RIFF".utf8) + [0x10, 0, 0, 0] + Array("WEBPVP8 ".utf8), .webp),
            (Array("BM".utf8) + [UInt8](repeating: 0, count: 30), .bmp),
            ([0x00, 0x00, 0x01, 0x00, 0x01, 0x00], .ico),
            (Array("%PDF-1.7\n".utf8), .pdf),
            (Array("<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8), .svg),
            ([0xFF, 0x0A, 0xFA, 0x7F], .jxl),
            (ftyp(major: "avif", compatible: ["mif1"]), .avif),
            (ftyp(major: "heic", compatible: ["mif1"]), .heic),
            (ftyp(major: "mif1", compatible: ["heic"]), .heif),
            (ftyp(major: "isom", compatible: ["avif"]), .avif),
        ]
        for sample in samples {
            #expect(ImageFormat(sniffing: Data(sample.bytes)) == sample.format, "\(sample.format)")
        }
    }

    @Test func refusesWhatIsNoImage() {
        #expect(ImageFormat(sniffing: Data()) == .undefined)
        #expect(ImageFormat(sniffing: Data([0xFF])) == .undefined)
        #expect(ImageFormat(sniffing: Data([0x89, 0x50, 0x4E])) == .undefined)
        #expect(ImageFormat(sniffing: Data(Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVE".utf8))) == .undefined)
        #expect(ImageFormat(sniffing: Data(Array("<html><body>not found</body></html>".utf8))) == .undefined)
        #expect(ImageFormat(sniffing: Data(ftyp(major: "mp42", compatible: ["isom"]))) == .undefined)
    }

    /// An OS/2 bitmap array is BMP only when a `BM` file header and an info header of a
    /// known size follow its `BA` header, within the data.
    @Test func sniffsBitmapArraysOnlyWhenWellFormed() {
        func bitmapArray(infoSize: UInt8, fileHeader: String = "BM", length: Int = 128) -> Data {
            var bytes = Array("BA".utf8) + [UInt8](repeating: 0, count: 12) + Array(fileHeader.utf8) + [UInt8](repeating: 0, count: 12)
            bytes += [infoSize, 0, 0, 0]
            bytes += [UInt8](repeating: 0, count: max(0, length - bytes.count))
            return Data(bytes)
        }
        #expect(ImageFormat(sniffing: bitmapArray(infoSize: 12)) == .bmp)
        #expect(ImageFormat(sniffing: bitmapArray(infoSize: 40)) == .bmp)
        #expect(ImageFormat(sniffing: bitmapArray(infoSize: 12, fileHeader: "CI")) == .undefined)
        #expect(ImageFormat(sniffing: bitmapArray(infoSize: 8)) == .undefined)
        #expect(ImageFormat(sniffing: bitmapArray(infoSize: 124, length: 151)) == .undefined)
        #expect(ImageFormat(sniffing: bitmapArray(infoSize: 12).prefix(39)) == .undefined)
        #expect(ImageFormat(sniffing: Data(Array("BAD REQUEST".utf8))) == .undefined)
    }

    @Test func mapsFileExtensions() {
        #expect(ImageFormat(fileExtension: "JPG") == .jpeg)
        #expect(ImageFormat(fileExtension: ".jpeg") == .jpeg)
        #expect(ImageFormat(fileExtension: "apng") == .png)
        #expect(ImageFormat(fileExtension: "webp") == .webp)
        #expect(ImageFormat(fileExtension: "heics") == .heic)
        #expect(ImageFormat(fileExtension: "undefined") == nil)
        #expect(ImageFormat(fileExtension: "txt") == nil)
        #expect(ImageFormat.jpeg.fileExtension == "jpg")
        #expect(ImageFormat.webp.mimeType == "image/webp")
    }

    /// Every fixture of SDWebImage's test suite sniffs as the format its name says
    /// (`.heics`, an HEIF image sequence with major brand `msf1`, is HEIF as in SDWebImage).
    @Test(Corpus.required) func sniffsEverySeedFixture() throws {
        let expected: [String: ImageFormat] = [
            "jpg": .jpeg, "jpeg": .jpeg, "png": .png, "apng": .png, "gif": .gif, "webp": .webp,
            "heic": .heic, "heif": .heif, "heics": .heif, "avif": .avif, "jxl": .jxl,
            "pdf": .pdf, "svg": .svg,
        ]
        let files = Corpus.files(in: "sdwebimage", extensions: Set(expected.keys))
        #expect(files.count == 26)
        for file in files {
            let data = try Data(contentsOf: file)
            #expect(ImageFormat(sniffing: data) == expected[file.pathExtension], "\(file.lastPathComponent)")
        }
        let heic = try Corpus.data("sdwebimage/TestHDR.heic")
        #expect(ImageFormat(sniffing: heic) == .heic)
    }

    /// Every corpus image that a reference decoder identified sniffs as the same format.
    @Test(Corpus.required) func agreesWithTheCorpusManifests() throws {
        let names: [String: ImageFormat] = ["PNG": .png, "JPEG": .jpeg, "GIF": .gif, "WEBP": .webp, "BMP": .bmp]
        let manifests = Corpus.files(in: "_manifests", extensions: ["csv"])
        #expect(manifests.count >= 10)
        var checked = 0
        for manifest in manifests {
            let folder = manifest.deletingPathExtension().lastPathComponent
            let rows = try String(contentsOf: manifest, encoding: .utf8).split(whereSeparator: \.isNewline).dropFirst()
            for row in rows {
                let columns = row.split(separator: ",", omittingEmptySubsequences: false)
                guard columns.count > 3, let format = names[String(columns[3])] else { continue }
                let data = try Corpus.data("\(folder)/\(columns[0])")
                #expect(ImageFormat(sniffing: data) == format, "\(folder)/\(columns[0])")
                checked += 1
            }
        }
        #expect(checked > 500)
    }

    private func ftyp(major: String, compatible: [String]) -> [UInt8] {
        let brands = [major, "\u{0}\u{0}\u{0}\u{0}"] + compatible
        let body = Array("ftyp".utf8) + brands.flatMap { Array($0.utf8) }
        let size = UInt32(4 + body.count)
        return withUnsafeBytes(of: size.bigEndian) { Array($0) } + body
    }
}
