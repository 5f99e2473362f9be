import Foundation
import Testing
import WebImageCoders
import WebImageCore

@Suite struct ImageCodersManagerTests {
    /// Claims every PNG and answers with a 1×1 image, to show which coder was asked.
    struct ClaimingCoder: ImageCoder {
        func canDecode(_ data: Data) -> Bool { ImageFormat(sniffing: data) == .png }
        func decode(_ data: Data, options: ImageDecodeOptions) throws(ImageError) -> Image {
            Image(bitmap: Bitmap(width: 1, height: 1), format: .png)
        }
        func canEncode(to format: ImageFormat) -> Bool { false }
        func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(ImageError) -> Data {
            throw ImageError(.unsupportedFormat, "no")
        }
    }

    let opaque = Image(bitmap: Bitmap(width: 8, height: 8, pixels: [UInt8](repeating: 255, count: 256)))
    let translucent = Image(bitmap: Bitmap(width: 8, height: 8, pixels: [UInt8](repeating: 100, count: 256)))

    @Test func aLaterCoderWinsAndCanBeRemoved() throws {
        let coders = ImageCodersManager()
        let png = try coders.encode(translucent, as: .png)
        #expect(try coders.decode(png).pixelSize == PixelSize(width: 8, height: 8))
        coders.addCoder(ClaimingCoder())
        #expect(try coders.decode(png).pixelSize == PixelSize(width: 1, height: 1))
        coders.removeCoders(ofType: ClaimingCoder.self)
        #expect(try coders.decode(png).pixelSize == PixelSize(width: 8, height: 8))
    }

    @Test func encodingPicksAFormatThatFitsTheImage() throws {
        let coders = ImageCodersManager()
        #expect(coders.preferredFormat(for: opaque) == .jpeg)
        #expect(coders.preferredFormat(for: translucent) == .png)
        let frames = [ImageFrame(bitmap: opaque.bitmap, duration: 0.1), ImageFrame(bitmap: translucent.bitmap, duration: 0.1)]
        #expect(coders.preferredFormat(for: Image(frames: frames, format: .webp)) == .webp)
        #expect(coders.preferredFormat(for: Image(frames: frames, format: .jpeg)) == .gif)
        #expect(ImageFormat(sniffing: try coders.encode(opaque)) == .jpeg)
        #expect(ImageFormat(sniffing: try coders.encode(translucent)) == .png)
    }

    @Test func refusesWhatNoCoderTakes() {
        let coders = ImageCodersManager()
        #expect(throws: ImageError(.emptyData, "there are no bytes to decode")) { try coders.decode(Data()) }
        do {
            _ = try coders.decode(Data("%PDF-1.7".utf8 + [UInt8](repeating: 0, count: 40)))
            Issue.record("a PDF decoded without a PDF coder")
        } catch {
            #expect(error.code == .unsupportedFormat)
        }
        do {
            _ = try coders.encode(opaque, as: .svg)
            Issue.record("SVG encoded without an SVG coder")
        } catch {
            #expect(error.code == .unsupportedFormat)
        }
    }
}
