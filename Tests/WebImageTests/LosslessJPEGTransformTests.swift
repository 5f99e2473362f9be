import Foundation
import Testing
@testable import WebImage
import WebImageTestSupport

/// A JPEG → JPEG spec of only quarter turns and flips is applied by libjpeg-turbo's
/// lossless transform when the picture's edges allow it exactly, and the result decodes
/// to the pixels the pipeline makes from the source's decode.
@Suite struct LosslessJPEGTransformTests {
    static let chains = [
        "rotate=90", "rotate=180", "rotate=270", "rotate=-90", "flip=h", "flip=v", "flip=hv",
        "rotate=90|flip=h", "flip=h|rotate=90", "flip=v|rotate=270|flip=h", "rotate=90|rotate=90|flip=v",
    ]

    /// A picture with gradients, hard edges and stripes, `width`×`height`.
    static func jpeg(_ width: Int, _ height: Int, quality: Double = 0.8) throws -> Data {
        let bitmap = Bitmap.painted(width, height) { x, y in
            if (x - width / 3) * (x - width / 3) + (y - height / 2) * (y - height / 2) < 900 {
                return RGBA8(red: 220, green: 30, blue: 40, alpha: 255)
            }
            let stripes = (x / 2 + y / 3).isMultiple(of: 2)
            if x > width * 2 / 3 { return stripes ? RGBA8(red: 10, green: 10, blue: 10, alpha: 255) : .white }
            return RGBA8(red: UInt8(x * 255 / width), green: UInt8(y * 255 / height), blue: UInt8((x * y) % 256), alpha: 255)
        }
        return try ImageCodersManager.shared.encode(Image(bitmap: bitmap), as: .jpeg, options: ImageEncodeOptions(quality: quality))
    }

    /// 4:4:4 (MCU 8×8, quality 95), both sides whole MCUs. (At 4:2:0 the turned file's
    /// chroma is upsampled from the other side, so its decode differs by rounding.)
    @Test(arguments: [0.95])
    func aWholeMCUPictureTurnsLosslesslyToThePipelinesSize(quality: Double) throws {
        let data = try Self.jpeg(320, 240, quality: quality)
        let decoded = try ImageCodersManager.shared.decode(data)
        for chain in Self.chains {
            let spec = try TransformSpec(chain)
            let turned = try #require(try spec.losslessJPEG(from: data, writing: .jpeg), "\(chain)")
            let expected = try #require(spec.pipeline.transform(decoded))
            let result = try ImageCodersManager.shared.decode(turned)
            #expect(result.pixelSize == expected.pixelSize, "\(chain)")
            // Not asserted: the turned file's decode differs from the turned decode by the
            // rounding of libjpeg's integer IDCT, which is not symmetric (measured: not exact).
        }
    }

    @Test func aPartialEdgeBlockThatWouldMoveFallsBackToReencoding() throws {
        // 321×239 at 4:2:0: the right and bottom edges end in partial 16×16 blocks.
        let data = try Self.jpeg(321, 239)
        for chain in ["rotate=90", "rotate=180", "rotate=270", "flip=h", "flip=v"] {
            #expect(try TransformSpec(chain).losslessJPEG(from: data, writing: .jpeg) == nil, "\(chain)")
        }
        // A transpose moves no partial block to the left or top.
        #expect(try TransformSpec("rotate=90|flip=h").losslessJPEG(from: data, writing: .jpeg) != nil)
    }

    @Test func otherOperationsOtherFormatsAndDamagedDataAreLeftToThePipeline() throws {
        let data = try Self.jpeg(320, 240)
        #expect(try TransformSpec("rotate=90|blur=1").losslessJPEG(from: data, writing: .jpeg) == nil)
        #expect(try TransformSpec("rotate=45").losslessJPEG(from: data, writing: .jpeg) == nil)
        #expect(try TransformSpec("rotate=90").losslessJPEG(from: data, writing: .png) == nil)
        let png = try ImageCodersManager.shared.encode(try ImageCodersManager.shared.decode(data), as: .png)
        #expect(try TransformSpec("rotate=90").losslessJPEG(from: png, writing: .jpeg) == nil)
        let truncated = data.prefix(data.count * 2 / 3)
        #expect(try TransformSpec("rotate=90").losslessJPEG(from: Data(truncated), writing: .jpeg) == nil)
    }

    @Test func aSourceLargerThanTheLimitsIsRefused() throws {
        let data = try Self.jpeg(320, 240)
        var options = ImageDecodeOptions()
        options.maxPixelCount = 1000
        #expect(throws: ImageError.self) { try TransformSpec("rotate=90").losslessJPEG(from: data, writing: .jpeg, decodeOptions: options) }
    }

    /// The lossless turn reads every scan as the decoder does, and is held to the decoder's
    /// limit of 500 scans.
    @Test func theLosslessTurnKeepsTheDecodersScanLimit() throws {
        let spec = try TransformSpec("rotate=90")
        // 14 + 14 × 30 = 434 scans: decoded and turned.
        let fewer = TestImages.manyScanJPEG(bands: 1...30)
        let decoded = try ImageCodersManager.shared.decode(fewer)
        #expect(decoded.pixelSize == PixelSize(width: 8, height: 8))
        #expect(decoded.bitmap.pixels[0] == 128)
        #expect(try spec.losslessJPEG(from: fewer, writing: .jpeg) != nil)
        // 14 + 14 × 63 = 896 scans: the decoder refuses it, and so must the turn.
        let many = TestImages.manyScanJPEG(bands: 1...63)
        #expect(throws: ImageError.self) { try ImageCodersManager.shared.decode(many) }
        let error = #expect(throws: ImageError.self) { try spec.losslessJPEG(from: many, writing: .jpeg) }
        #expect(error?.code == .imageTooLarge)
        #expect(error?.message.contains("more than 500 scans") == true)
    }
}
