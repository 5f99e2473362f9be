#if ColorManagement
import CLCMS
import Foundation
import WebImageCore

/// Little CMS used directly, as the reference the colour tests hold our output to: it
/// builds the profiles (Display P3, Adobe RGB, a CMYK press), converts pixels to sRGB on
/// its own, and measures colour differences in CIEDE2000.
enum LittleCMSReference {
    /// D65 white, as every RGB profile here uses.
    private static let d65 = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)

    /// A Display P3 profile: P3 primaries, D65, the sRGB tone curve.
    static func displayP3() -> Data {
        let curve = cmsBuildParametricToneCurve(nil, 4, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045])
        defer { cmsFreeToneCurve(curve) }
        return rgbProfile(red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060), curve: curve, name: "Test Display P3")
    }

    /// An sRGB profile of its own (not Little CMS's built-in one): sRGB's primaries, D65
    /// and tone curve.
    static func sRGB() -> Data {
        let curve = cmsBuildParametricToneCurve(nil, 4, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045])
        defer { cmsFreeToneCurve(curve) }
        return rgbProfile(red: (0.64, 0.33), green: (0.30, 0.60), blue: (0.15, 0.06), curve: curve, name: "Test sRGB")
    }

    /// An Adobe RGB (1998) profile: its primaries, D65, gamma 563/256.
    static func adobeRGB() -> Data {
        let curve = cmsBuildGamma(nil, 563.0 / 256.0)
        defer { cmsFreeToneCurve(curve) }
        return rgbProfile(red: (0.64, 0.33), green: (0.21, 0.71), blue: (0.15, 0.06), curve: curve, name: "Test Adobe RGB")
    }

    /// An RGB profile of about 24 KB, the size of real-world profiles such as Adobe's own
    /// Adobe RGB (1998) (18.6 KB): sRGB primaries, D65, and a tone curve for each channel
    /// tabulated at 4,096 points (gammas 2.1, 2.2 and 2.3, so that Little CMS stores three
    /// curves rather than one shared by all).
    static func largeTabulatedRGB() -> Data {
        let curves = [2.1, 2.2, 2.3].map { gamma in
            let table = (0..<4096).map { UInt16((pow(Double($0) / 4095, gamma) * 65535).rounded()) }
            return cmsBuildTabulatedToneCurve16(nil, 4096, table)
        }
        defer { for curve in curves { cmsFreeToneCurve(curve) } }
        var white = d65
        var primaries = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: 0.64, y: 0.33, Y: 1), Green: cmsCIExyY(x: 0.30, y: 0.60, Y: 1),
            Blue: cmsCIExyY(x: 0.15, y: 0.06, Y: 1))
        var transfer: [OpaquePointer?] = curves
        let profile = cmsCreateRGBProfile(&white, &primaries, &transfer)!
        defer { cmsCloseProfile(profile) }
        setDescription("Test tabulated RGB", of: profile)
        return save(profile)
    }

    private static func rgbProfile(
        red: (Double, Double), green: (Double, Double), blue: (Double, Double), curve: OpaquePointer?, name: String
    ) -> Data {
        var white = d65
        var primaries = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: red.0, y: red.1, Y: 1), Green: cmsCIExyY(x: green.0, y: green.1, Y: 1),
            Blue: cmsCIExyY(x: blue.0, y: blue.1, Y: 1))
        var curves: [OpaquePointer?] = [curve, curve, curve]
        let profile = cmsCreateRGBProfile(&white, &primaries, &curves)!
        defer { cmsCloseProfile(profile) }
        setDescription(name, of: profile)
        return save(profile)
    }

    /// A CMYK output profile whose `AToB0` table is the naive ink formula seen through
    /// sRGB, sampled on a 9-point grid: enough for Little CMS to convert CMYK through it.
    static func cmykPress() -> Data {
        let profile = cmsCreateProfilePlaceholder(nil)!
        defer { cmsCloseProfile(profile) }
        cmsSetProfileVersion(profile, 4.3)
        cmsSetDeviceClass(profile, cmsSigOutputClass)
        cmsSetColorSpace(profile, cmsSigCmykData)
        cmsSetPCS(profile, cmsSigLabData)
        let pipeline = cmsPipelineAlloc(nil, 4, 3)!
        defer { cmsPipelineFree(pipeline) }
        let table = cmsStageAllocCLut16bit(nil, 9, 4, 3, nil)!
        let sampler: cmsSAMPLER16 = { input, output, _ in
            guard let input, let output else { return 0 }
            let ink = (0..<4).map { Double(input[$0]) / 65535 }
            let rgb = (0..<3).map { (1 - ink[$0]) * (1 - ink[3]) }
            var lab = LittleCMSReference.lab(ofSRGB: rgb)
            cmsFloat2LabEncoded(output, &lab)
            return 1
        }
        cmsStageSampleCLut16bit(table, sampler, nil, 0)
        // A version 4 AToB table holds curves, a lookup table, curves (A, CLUT, B): Little
        // CMS will not write a lookup table alone, so identity curves stand around it.
        cmsPipelineInsertStage(pipeline, cmsAT_BEGIN, cmsStageAllocToneCurves(nil, 4, nil))
        cmsPipelineInsertStage(pipeline, cmsAT_END, table)
        cmsPipelineInsertStage(pipeline, cmsAT_END, cmsStageAllocToneCurves(nil, 3, nil))
        cmsWriteTag(profile, cmsSigAToB0Tag, UnsafeRawPointer(pipeline))
        setDescription("Test CMYK press", of: profile)
        return save(profile)
    }

    /// CIE Lab (D50) of an sRGB colour with components in 0…1, computed in Swift.
    static func lab(ofSRGB rgb: [Double]) -> cmsCIELab {
        let linear = rgb.map { $0 <= 0.04045 ? $0 / 12.92 : pow(($0 + 0.055) / 1.055, 2.4) }
        // sRGB to XYZ, adapted to D50 (Bradford).
        let x = 0.4360747 * linear[0] + 0.3850649 * linear[1] + 0.1430804 * linear[2]
        let y = 0.2225045 * linear[0] + 0.7168786 * linear[1] + 0.0606169 * linear[2]
        let z = 0.0139322 * linear[0] + 0.0971045 * linear[1] + 0.7141733 * linear[2]
        var xyz = cmsCIEXYZ(X: x, Y: y, Z: z)
        var lab = cmsCIELab()
        cmsXYZ2Lab(nil, &lab, &xyz)
        return lab
    }

    private static func setDescription(_ text: String, of profile: cmsHPROFILE) {
        let mlu = cmsMLUalloc(nil, 1)
        defer { cmsMLUfree(mlu) }
        cmsMLUsetASCII(mlu, "en", "US", text)
        cmsWriteTag(profile, cmsSigProfileDescriptionTag, UnsafeRawPointer(mlu))
    }

    private static func save(_ profile: cmsHPROFILE) -> Data {
        var length: cmsUInt32Number = 0
        cmsSaveProfileToMem(profile, nil, &length)
        var bytes = [UInt8](repeating: 0, count: Int(length))
        cmsSaveProfileToMem(profile, &bytes, &length)
        return Data(bytes.prefix(Int(length)))
    }

    /// Little CMS's own conversion of 8-bit pixels (`channels` a pixel: RGBA, or CMYK
    /// stored inverted as Adobe writes it) from `profile` to sRGB RGB, relative
    /// colorimetric with black-point compensation.
    static func toSRGB(_ pixels: [UInt8], channels: Int, inverted: Bool = false, from profile: Data) -> [UInt8] {
        let source = profile.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }!
        let sRGB = cmsCreate_sRGBProfile()!
        defer {
            cmsCloseProfile(source)
            cmsCloseProfile(sRGB)
        }
        let inputType =
            channels == 4 && cmsGetColorSpace(source) == cmsSigCmykData
            ? (inverted ? clcms_type_cmyk_8_reversed : clcms_type_cmyk_8) : clcms_type_rgba_8
        let transform = cmsCreateTransform(
            source, inputType, sRGB, clcms_type_rgb_8, cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC),
            cmsUInt32Number(cmsFLAGS_BLACKPOINTCOMPENSATION))!
        defer { cmsDeleteTransform(transform) }
        let count = pixels.count / channels
        var output = [UInt8](repeating: 0, count: count * 3)
        cmsDoTransform(transform, pixels, &output, cmsUInt32Number(count))
        return output
    }

    /// The RGB of every pixel of an RGBA8 bitmap.
    static func rgb(of bitmap: Bitmap) throws -> [UInt8] {
        let rgba = try bitmap.convertedToRGBA8().pixels
        return (0..<(rgba.count / 4)).flatMap { rgba[($0 * 4)..<($0 * 4 + 3)] }
    }

    /// The largest CIEDE2000 difference between two sRGB RGB buffers, pixel by pixel.
    static func maximumDeltaE(_ first: [UInt8], _ second: [UInt8]) -> Double {
        precondition(first.count == second.count, "the buffers differ in size")
        var worst = 0.0
        for pixel in 0..<(first.count / 3) {
            var a = lab(ofSRGB: (0..<3).map { Double(first[pixel * 3 + $0]) / 255 })
            var b = lab(ofSRGB: (0..<3).map { Double(second[pixel * 3 + $0]) / 255 })
            worst = max(worst, cmsCIE2000DeltaE(&a, &b, 1, 1, 1))
        }
        return worst
    }
}
#endif
