#if JXL
// Compiled only with the `JXL` package trait, so that a build without it never imports
// CJXL and needs no libjxl headers.
import CJXL
import Foundation
import WebImageCore
import WebImageJPEG

extension JXLCoder {
    /// The most scans a recompressed JPEG may have: each is a pass over the coefficients,
    /// the limit the JPEG decoder holds too.
    public static let maxRecompressedScans = 500

    /// The JPEG in `jpeg` recompressed into JPEG XL without loss: libjxl keeps its DCT
    /// coefficients and stores the JPEG's reconstruction data (the `jbrd` box), so the
    /// result shows exactly the pixels the JPEG shows, is about a fifth smaller, and
    /// `djxl` rebuilds the JPEG it was made from byte for byte. No pixel is decoded.
    ///
    /// What is kept follows the encoders' metadata policy, so the result carries what a
    /// JPEG XL encode of the decoded pixels would: the JPEG is first rewritten without
    /// its EXIF, XMP, IPTC, MPF and other application segments, its comments and anything
    /// after its end-of-image marker (an Ultra HDR gain map); only the `JFIF` `APP0`, the
    /// Adobe `APP14` (which say how the samples are coded) and, with
    /// `colorProfile` `ColorProfileHandling.keep`, the ICC profile stay. That rewritten
    /// JPEG is the one `djxl` rebuilds: the source itself when it had nothing else.
    /// Copyright is not written (the JPEG XL coder writes no metadata).
    ///
    /// - Parameters:
    ///   - jpeg: A baseline or progressive JPEG.
    ///   - colorProfile: With `ColorProfileHandling.convertToSRGB` (the encoders'
    ///     default) an ICC profile of sRGB is dropped, as that conversion would (converting
    ///     through it moves no sample by more than 2 levels of 255), and a JPEG that
    ///     carries any other profile is refused, since its pixels would have to be
    ///     converted; with `ColorProfileHandling.keep` the profile is kept.
    ///   - limits: The pixel and byte limits a decode of the JPEG would be held to; libjxl's
    ///     allocations are capped at `maxTotalBytes` each.
    /// - Throws: ``JXLRecompressionError``: the caller then decodes and encodes instead.
    public func recompress(
        jpeg: Data, colorProfile: ColorProfileHandling = .convertToSRGB, limits: ImageDecodeOptions = ImageDecodeOptions()
    ) throws(JXLRecompressionError) -> Data {
        let checked = jpeg.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            Result { () throws(JXLRecompressionError) -> JPEGMarkerFilter in
                guard bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xD8 else { throw .notJPEG }
                let metadata = JPEGMetadata(reading: bytes)
                guard metadata.orientation == .up else { throw .notUpright(metadata.orientation) }
                guard let size = metadata.frameSize else { throw .malformedJPEG("it has no frame header") }
                do throws(ImageError) {
                    try limits.checkAllocation(size)
                } catch {
                    throw .tooLarge(error.message)
                }
                let keepsProfile = colorProfile == .keep
                if !keepsProfile, let profile = metadata.iccProfile, !Self.convertsAsSRGB(profile) {
                    throw .colorProfileNeedsConversion
                }
                return try JPEGMarkerFilter(bytes, keepsColorProfile: keepsProfile, maxScans: Self.maxRecompressedScans)
            }
        }
        let filtered = try checked.get().jpeg
        return try Self.encode(jpeg: filtered, effort: encodingEffort, maxAllocation: limits.maxTotalBytes)
    }

    /// Whether converting pixels from `profile` to sRGB leaves them as they are, within
    /// ``maxSRGBDifference`` levels, on greys and the primaries' ramps: a profile such a
    /// conversion only drops (an sRGB profile; any profile without the `ColorManagement`
    /// trait, whose encoders drop profiles without converting).
    private static func convertsAsSRGB(_ profile: [UInt8]) -> Bool {
        guard let colorProfile = ColorProfile(data: Data(profile)) else { return true }
        var pixels: [UInt8] = []
        for level in stride(from: 0, through: 255, by: 15).map(UInt8.init) {
            pixels += [level, level, level, 255, level, 0, 0, 255, 0, level, 0, 255, 0, 0, level, 255]
        }
        let bitmap = Bitmap(width: pixels.count / 4, height: 1, pixels: pixels)
        let converted = Image(bitmap: bitmap, colorProfile: colorProfile).convertedToSRGB().bitmap.pixels
        return zip(pixels, converted).allSatisfy { abs(Int($0) - Int($1)) <= maxSRGBDifference }
    }

    /// The most a sample may move, in levels of 255, when an ICC profile is converted to
    /// sRGB for the profile to count as sRGB (profiles of sRGB differ from Little CMS's
    /// own by their curves' rounding).
    static let maxSRGBDifference = 2

    /// libjxl's recompression of `jpeg` with its reconstruction data.
    private static func encode(jpeg: Data, effort: Int, maxAllocation: Int) throws(JXLRecompressionError) -> Data {
        let budget = JXLMemoryBudget(maxAllocation: maxAllocation)
        var manager = budget.manager
        guard let encoder = JxlEncoderCreate(&manager) else { throw .refused(code: Int(JXL_ENC_ERR_OOM.rawValue)) }
        defer { withExtendedLifetime(budget) { JxlEncoderDestroy(encoder) } }
        func refusal() -> JXLRecompressionError { .refused(code: Int(JxlEncoderGetError(encoder).rawValue)) }
        guard JxlEncoderStoreJPEGMetadata(encoder, 1) == JXL_ENC_SUCCESS,
            let settings = JxlEncoderFrameSettingsCreate(encoder, nil),
            JxlEncoderFrameSettingsSetOption(settings, JXL_ENC_FRAME_SETTING_EFFORT, Int64(effort)) == JXL_ENC_SUCCESS
        else { throw refusal() }
        let added = jpeg.withUnsafeBytes { bytes in
            JxlEncoderAddJPEGFrame(settings, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count)
        }
        guard added == JXL_ENC_SUCCESS else { throw refusal() }
        JxlEncoderCloseInput(encoder)
        do {
            return try JXLWriter.drain(encoder)
        } catch {
            throw refusal()
        }
    }
}
#endif
