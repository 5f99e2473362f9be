#if ColorManagement
import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
@testable import WebImageJPEG
import WebImageTestSupport

/// ICC profiles through Little CMS: read by the decoders, converted to sRGB on output by
/// default, or kept byte for byte with `icc=keep`.
@Suite("Colour profiles")
struct ColorProfileTests {
    /// The lossless formats the conversion is checked in, so the codec adds no error.
    static let outputs: [(ImageFormat, ImageEncodeOptions)] = [
        (.png, ImageEncodeOptions()),
        (.webp, ImageEncodeOptions(lossless: true)),
        (.avif, ImageEncodeOptions(lossless: true)),
    ]

    /// Saturated ramps and greys, 48×48: colours P3 and Adobe RGB hold and sRGB does not.
    static func ramps() -> Bitmap {
        var bitmap = Bitmap(width: 48, height: 48)
        for y in 0..<48 {
            for x in 0..<48 {
                let offset = (y * 48 + x) * 4
                let band = y / 12
                let level = UInt8(x * 255 / 47)
                let pixel: [UInt8] =
                    switch band {
                    case 0: [level, 0, 0]
                    case 1: [0, level, 0]
                    case 2: [0, UInt8(y * 5), level]
                    default: [level, level, UInt8(255 - Int(level))]
                    }
                bitmap.pixels[offset..<(offset + 3)] = pixel[...]
                bitmap.pixels[offset + 3] = 255
            }
        }
        return bitmap
    }

    /// A JPEG of `bitmap` (quality 100, 4:4:4) carrying `profile` in its `APP2` segments.
    static func jpeg(of bitmap: Bitmap, profile: Data) throws -> Data {
        let image = Image(bitmap: bitmap, colorProfile: ColorProfile(data: profile))
        return try ImageCodersManager.shared.encode(image, as: .jpeg, options: ImageEncodeOptions(quality: 1, colorProfile: .keep))
    }

    @Test(arguments: [("Display P3", LittleCMSReference.displayP3()), ("Adobe RGB", LittleCMSReference.adobeRGB())])
    func rgbJPEGConvertsToSRGBAsLittleCMSDoes(name: String, profile: Data) throws {
        let source = try Self.jpeg(of: Self.ramps(), profile: profile)
        let decoded = try ImageCodersManager.shared.decode(source)
        #expect(decoded.colorProfile?.data == profile)
        #expect(decoded.colorProfile?.description == "Test \(name)")
        let stored = try LittleCMSReference.rgb(of: decoded.bitmap)
        let expected = LittleCMSReference.toSRGB(decoded.bitmap.pixels, channels: 4, from: profile)
        // The conversion matters: the stored numbers, read as sRGB, are visibly off (ΔE2000
        // 4.7 for Display P3 on these ramps, more for Adobe RGB), where the outputs below
        // must come within 1.
        #expect(LittleCMSReference.maximumDeltaE(stored, expected) > 3)
        for (format, options) in Self.outputs {
            let output = try ImageCodersManager.shared.encode(decoded, as: format, options: options)
            let written = try ImageCodersManager.shared.decode(output)
            #expect(written.colorProfile == nil, "\(format.rawValue) keeps no profile by default")
            let delta = try LittleCMSReference.maximumDeltaE(LittleCMSReference.rgb(of: written.bitmap), expected)
            #expect(delta <= 1, "\(name) as \(format.rawValue): ΔE2000 up to \(delta)")
        }
    }

    @Test(arguments: [LittleCMSReference.displayP3(), LittleCMSReference.adobeRGB()])
    func keepWritesTheSourceProfileByteForByte(profile: Data) throws {
        let decoded = try ImageCodersManager.shared.decode(try Self.jpeg(of: Self.ramps(), profile: profile))
        let keep = ImageEncodeOptions(colorProfile: .keep)
        for format: ImageFormat in [.jpeg, .png, .webp, .avif, .tiff] {
            var options = keep
            options.lossless = format != .jpeg
            let output = try ImageCodersManager.shared.encode(decoded, as: format, options: options)
            let written = try ImageCodersManager.shared.decode(output)
            #expect(written.colorProfile?.data == profile, "\(format.rawValue) with icc=keep")
            if format != .jpeg {
                #expect(written.bitmap.pixels == decoded.bitmap.pixels, "\(format.rawValue) keeps the pixels as they are")
            }
        }
    }

    @Test func cmykJPEGConvertsThroughItsProfile() throws {
        let profile = LittleCMSReference.cmykPress()
        // Ink as Adobe stores it (255 is no ink): libjpeg writes the Adobe marker with YCCK.
        let size = PixelSize(width: 32, height: 32)
        var ink = [UInt8](repeating: 0, count: 32 * 32 * 4)
        for index in 0..<(32 * 32) {
            let x = index % 32, y = index / 32
            ink[index * 4] = UInt8(255 - x * 8)
            ink[index * 4 + 1] = UInt8(255 - y * 8)
            ink[index * 4 + 2] = UInt8(255 - (x + y) * 4)
            ink[index * 4 + 3] = UInt8(255 - (x % 4) * 30)
        }
        let compressor = try JPEGCompressor(size: size, pixels: .cmyk, quality: 100, lumaSampling: PixelSize(width: 1, height: 1))
        let written = ink.withUnsafeBytes { rows in
            Result { () throws(ImageError) in try compressor.write(rows: rows, bytesPerRow: 32 * 4) }
        }
        try written.get()
        let plain = try compressor.finish()
        let source = JPEGICCSegments.inserting(try #require(ColorProfile(data: profile)), into: plain)

        // What libjpeg stores, read back as ink, then Little CMS's own conversion.
        let rows = UnsafeMutableRawBufferPointer.allocate(byteCount: 32 * 32 * 4, alignment: 16)
        defer { rows.deallocate() }
        try source.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws in
            let decompressor = try JPEGDecompressor(bytes, maxMemory: 1 << 26)
            _ = try decompressor.readHeader()
            _ = try decompressor.start(scale: .one, pixels: .cmyk)
            _ = try decompressor.readRows(into: rows.baseAddress!, stride: 32 * 4, count: 32)
        }
        let stored = [UInt8](rows)
        let expected = LittleCMSReference.toSRGB(stored, channels: 4, inverted: true, from: profile)
        let decoded = try ImageCodersManager.shared.decode(source)
        #expect(decoded.colorProfile == nil, "CMYK converts when it decodes: the RGB pixels are sRGB")
        for (format, options) in Self.outputs {
            let output = try ImageCodersManager.shared.encode(decoded, as: format, options: options)
            let written = try LittleCMSReference.rgb(of: ImageCodersManager.shared.decode(output).bitmap)
            let delta = LittleCMSReference.maximumDeltaE(written, expected)
            #expect(delta <= 1, "CMYK as \(format.rawValue): ΔE2000 up to \(delta)")
        }
    }

    @Test func pngAndWebPCarryTheirProfiles() throws {
        let profile = LittleCMSReference.displayP3()
        let image = Image(bitmap: Self.ramps(), colorProfile: ColorProfile(data: profile))
        for format: ImageFormat in [.png, .webp] {
            let data = try ImageCodersManager.shared.encode(image, as: format, options: ImageEncodeOptions(lossless: true, colorProfile: .keep))
            #expect(try ImageCodersManager.shared.decode(data).colorProfile?.data == profile, "\(format.rawValue)")
        }
    }

    @Test func aProfileThatDoesNotFitThePixelsIsDroppedWithoutConversion() throws {
        let image = Image(bitmap: Self.ramps(), colorProfile: ColorProfile(data: LittleCMSReference.cmykPress()))
        let converted = image.convertedToSRGB()
        #expect(converted.colorProfile == nil)
        #expect(converted.bitmap == image.bitmap)
    }

    @Test(
        .enabled(if: Corpus.isAvailable, "needs ../shared/corpora"),
        arguments: ["sdwebimage/TestICCProfile.jpg", "large-images/Painting-Colors_by__herobrine7gamer.jpg"])
    func realFilesKeepOrConvertTheirProfiles(path: String) throws {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 256, height: 256)
        let decoded = try ImageCodersManager.shared.decode(try Corpus.data(path), options: options)
        let profile = try #require(decoded.colorProfile, "\(path) embeds a profile")
        let expected = LittleCMSReference.toSRGB(decoded.bitmap.pixels, channels: 4, from: profile.data)
        let png = try ImageCodersManager.shared.encode(decoded, as: .png)
        let written = try LittleCMSReference.rgb(of: ImageCodersManager.shared.decode(png).bitmap)
        #expect(LittleCMSReference.maximumDeltaE(written, expected) <= 1)
        let kept = try ImageCodersManager.shared.encode(decoded, as: .webp, options: ImageEncodeOptions(colorProfile: .keep))
        #expect(try ImageCodersManager.shared.decode(kept).colorProfile?.data == profile.data)
    }
}
#endif
