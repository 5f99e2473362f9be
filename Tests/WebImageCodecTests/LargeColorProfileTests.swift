#if ColorManagement
import Foundation
import Testing
@testable import WebImageCore
import WebImageCoders
import WebImageConversion
import WebImageTestSupport

/// A profile as large as real ones (about 24 KB) kept byte for byte by every encoder that
/// writes profiles. Issue 38: the PNG encoder handed libspng a pointer that was gone by
/// the time libspng compressed the profile, and the `iCCP` chunk came out with 499 bytes
/// wrong; run under AddressSanitizer (`scripts/test-asan.sh`), such a read is an error.
@Suite("Large colour profiles")
struct LargeColorProfileTests {
    /// Every format whose encoder writes the image's profile with `icc=keep`.
    static let formatsKeepingProfiles: [ImageFormat] = {
        var formats: [ImageFormat] = [.jpeg, .png, .webp]
        #if AVIF
        formats.append(.avif)
        #endif
        #if TIFF
        formats.append(.tiff)
        #endif
        #if JXL
        formats.append(.jxl)
        #endif
        #if HEIF
        formats.append(.heic)
        #endif
        return formats
    }()

    static let profile = LittleCMSReference.largeTabulatedRGB()

    @Test func theProfileIsAsLargeAsRealOnes() {
        #expect(Self.profile.count >= 16 * 1024, "\(Self.profile.count) bytes")
        #expect(ColorProfile(data: Self.profile)?.description == "Test tabulated RGB")
    }

    @Test(arguments: formatsKeepingProfiles)
    func everyEncoderWritesTheProfileByteForByte(format: ImageFormat) throws {
        try #require(ImageCodersManager.shared.canEncode(to: format), "Debian's libraries encode \(format.rawValue)")
        let image = Image(bitmap: ColorProfileTests.ramps(), colorProfile: ColorProfile(data: Self.profile))
        // A lossy JPEG XL holds its pixels in XYB, which libjxl decodes into a colour space
        // it describes with a profile of its own; losslessly it keeps the original's.
        let options = ImageEncodeOptions(lossless: format == .jxl, colorProfile: .keep)
        let data = try ImageCodersManager.shared.encode(image, as: format, options: options)
        let written = try #require(try ImageCodersManager.shared.decode(data).colorProfile, "\(format.rawValue) keeps a profile")
        #expect(written.data.count == Self.profile.count, "\(format.rawValue)")
        #expect(Self.differingBytes(written.data, Self.profile) == 0, "\(format.rawValue): bytes that differ")
    }

    /// `webimage convert photo.jpg out.png --transform 'format=png,icc=keep'`, as the tool
    /// runs it: the streaming converter declines a JPEG with a profile, and the whole image
    /// is decoded and encoded.
    @Test func aJPEGConvertedToPNGKeepingItsProfileCarriesItExactly() throws {
        let keep = ImageEncodeOptions(colorProfile: .keep)
        let jpeg = try ImageCodersManager.shared.encode(
            Image(bitmap: ColorProfileTests.ramps(), colorProfile: ColorProfile(data: Self.profile)), as: .jpeg, options: keep)
        let folder = TemporaryDirectory()
        let url = folder.appending("out.png")
        #expect(try StreamingImageConverter.convert(jpeg, to: .png, writingTo: url, options: keep) == nil)
        let png = try ImageCodersManager.shared.encode(try ImageCodersManager.shared.decode(jpeg), as: .png, options: keep)
        let written = try #require(try ImageCodersManager.shared.decode(png).colorProfile)
        #expect(Self.differingBytes(written.data, Self.profile) == 0)
    }

    /// How many bytes of `first` and `second` differ, counting any difference in length.
    static func differingBytes(_ first: Data, _ second: Data) -> Int {
        zip(first, second).filter { $0 != $1 }.count + abs(first.count - second.count)
    }
}
#endif
