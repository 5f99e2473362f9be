import CJPEG
import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
@testable import WebImageJPEG
import WebImageTestSupport

/// `JPEGLosslessTransform` turns a JPEG whose size is whole MCUs through the shim's
/// `cjpeg_turn_coefficients`, which builds each block of the result as the encoder asks
/// for it instead of filling a second whole-image array. It must write what TurboJPEG's
/// `tjTransform` (jpegtran's transform code) writes, byte for byte, for every turn and
/// mirror, every chroma sampling, grayscale, CMYK and progressive sources.
@Suite struct JPEGInPlaceTurnTests {
    /// TurboJPEG's operation for each orientation.
    static let operations: [(ImageOrientation, TJXOP)] = [
        (.upMirrored, TJXOP_HFLIP), (.down, TJXOP_ROT180), (.downMirrored, TJXOP_VFLIP), (.leftMirrored, TJXOP_TRANSPOSE),
        (.right, TJXOP_ROT90), (.rightMirrored, TJXOP_TRANSVERSE), (.left, TJXOP_ROT270),
    ]

    /// `data` through `tjTransform` with `operation`, perfect and without markers, cropped
    /// to `crop` (from the top left) first when given.
    static func turboJPEG(_ data: Data, _ operation: TJXOP, crop: PixelSize? = nil) -> Data? {
        guard let handle = tjInitTransform() else { return nil }
        defer { tjDestroy(handle) }
        var transform = tjtransform()
        transform.op = Int32(bitPattern: operation.rawValue)
        transform.options = TJXOPT_PERFECT | TJXOPT_COPYNONE
        if let crop {
            transform.options |= TJXOPT_CROP
            transform.r = tjregion(x: 0, y: 0, w: Int32(crop.width), h: Int32(crop.height))
        }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        defer { tjFree(output) }
        let status = data.withUnsafeBytes { bytes in
            tjTransform(handle, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt(bytes.count), 1, &output, &size, &transform, 0)
        }
        guard status == 0, let output else { return nil }
        return Data(bytes: output, count: Int(size))
    }

    /// Every turn of `jpeg` against TurboJPEG's.
    static func expectEveryTurnMatches(_ jpeg: Data, _ name: String) throws {
        for (orientation, operation) in operations {
            let turned = try JPEGLosslessTransform.transform(jpeg, to: orientation, options: ImageDecodeOptions())
            let expected = turboJPEG(jpeg, operation)
            #expect(turned != nil, "\(name) \(orientation)")
            #expect(turned == expected, "\(name) \(orientation): \(turned?.count ?? 0) bytes against \(expected?.count ?? 0)")
        }
    }

    /// A picture of whole MCUs written by the coder at 4:2:0 (quality 0.8) and 4:4:4 (0.95).
    @Test(arguments: [0.8, 0.95])
    func everyTurnIsTheBytesTurboJPEGWrites(quality: Double) throws {
        var bitmap = Bitmap(width: 144, height: 96)
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let offset = (y * bitmap.width + x) * 4
                bitmap.pixels[offset..<offset + 4] = [UInt8(x * 255 / 143), UInt8((x ^ y) & 0xFF), UInt8(y * 255 / 95), 255]
            }
        }
        let jpeg = try JPEGCoder().encode(Image(bitmap: bitmap), as: .jpeg, options: ImageEncodeOptions(quality: quality))
        try Self.expectEveryTurnMatches(jpeg, "q\(quality)")
    }

    /// Corpus JPEGs (grayscale, CMYK, progressive, arithmetic-coded, 4:2:2, with ICC
    /// profiles) cut to whole MCUs by TurboJPEG, then turned every way.
    @Test(
        Corpus.required,
        arguments: [
            "libjpeg-turbo-testimages/testorig.jpg", "libjpeg-turbo-testimages/testimgint.jpg",
            "libjpeg-turbo-testimages/testimgari.jpg", "sdwebimage/MonochromeTestImage.jpg", "sdwebimage/TestICCProfile.jpg",
            "sdwebimage/TestImage.jpg",
        ])
    func corpusPicturesTurnAsTurboJPEGTurnsThem(path: String) throws {
        let data = try Corpus.data(path)
        let size = try #require(try JPEGCoder().pixelSize(of: data))
        let whole = PixelSize(width: size.width / 32 * 32, height: size.height / 32 * 32)
        let cut = try #require(Self.turboJPEG(data, TJXOP_NONE, crop: whole), "\(path) cut to \(whole)")
        try Self.expectEveryTurnMatches(cut, path)
    }
}
