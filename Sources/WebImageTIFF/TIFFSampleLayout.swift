#if TIFF
// Compiled only with the `TIFF` package trait, so that a build without it never
// imports CTIFF and needs no libtiff headers.
import CTIFF
import WebImageCore

/// The sample layouts read straight from strips and tiles instead of through libtiff's
/// RGBA interface: contiguous, unsigned 8- or 16-bit grey or RGB, each with or without
/// unassociated alpha. They keep 16 bits and straight alpha exactly; every other layout
/// goes through the RGBA interface.
struct TIFFSampleLayout: Sendable, Equatable {
    /// Samples per pixel: 1 or 2 for grey (with alpha), 3 or 4 for RGB (with alpha).
    let samplesPerPixel: Int
    /// 8 or 16.
    let bitsPerSample: Int

    /// The layout of the current page, or `nil` when it is not one of the direct layouts.
    init?(_ tiff: OpaquePointer) {
        var bits: UInt16 = 0, samples: UInt16 = 0, format: UInt16 = 0, planar: UInt16 = 0, photometric: UInt16 = 0
        guard ctiff_get_uint16(tiff, UInt32(TIFFTAG_BITSPERSAMPLE), &bits) == 1,
            ctiff_get_uint16(tiff, UInt32(TIFFTAG_SAMPLESPERPIXEL), &samples) == 1,
            ctiff_get_uint16(tiff, UInt32(TIFFTAG_SAMPLEFORMAT), &format) == 1,
            ctiff_get_uint16(tiff, UInt32(TIFFTAG_PLANARCONFIG), &planar) == 1,
            ctiff_get_uint16(tiff, UInt32(TIFFTAG_PHOTOMETRIC), &photometric) == 1
        else { return nil }
        guard bits == 8 || bits == 16, format == SAMPLEFORMAT_UINT, planar == PLANARCONFIG_CONTIG else { return nil }
        let colours: Int
        switch Int32(photometric) {
        case PHOTOMETRIC_MINISBLACK: colours = 1
        case PHOTOMETRIC_RGB: colours = 3
        default: return nil
        }
        var extraCount: UInt16 = 0
        var extraTypes: UnsafeMutablePointer<UInt16>?
        _ = ctiff_get_extra_samples(tiff, &extraCount, &extraTypes)
        switch (Int(samples) - colours, Int(extraCount)) {
        case (0, 0):
            break
        case (1, 1) where extraTypes?.pointee == UInt16(EXTRASAMPLE_UNASSALPHA):
            break
        default:
            return nil
        }
        samplesPerPixel = Int(samples)
        bitsPerSample = Int(bits)
    }

    /// Whether the layout has an alpha sample.
    var hasAlpha: Bool { samplesPerPixel == 2 || samplesPerPixel == 4 }

    /// The output pixel format: 16-bit samples stay 16-bit.
    var pixelFormat: PixelFormat { bitsPerSample == 16 ? .rgba16 : .rgba8 }

    /// Bytes of one stored pixel.
    var bytesPerPixel: Int { samplesPerPixel * bitsPerSample / 8 }

    /// Expands `count` stored pixels at `source` into RGBA at `target` (both in the
    /// host's byte order, as libtiff returns samples).
    func expand(_ source: UnsafeRawPointer, into target: UnsafeMutableRawPointer, count: Int) {
        if bitsPerSample == 16 {
            expand(source.assumingMemoryBound(to: UInt16.self), into: target.assumingMemoryBound(to: UInt16.self), count: count)
        } else {
            expand(source.assumingMemoryBound(to: UInt8.self), into: target.assumingMemoryBound(to: UInt8.self), count: count)
        }
    }

    private func expand<Sample: FixedWidthInteger & UnsignedInteger>(
        _ source: UnsafePointer<Sample>, into target: UnsafeMutablePointer<Sample>, count: Int
    ) {
        let samples = samplesPerPixel
        for pixel in 0..<count {
            let from = source + pixel * samples
            let to = target + pixel * 4
            switch samples {
            case 1, 2:
                to[0] = from[0]
                to[1] = from[0]
                to[2] = from[0]
                to[3] = samples == 2 ? from[1] : Sample.max
            default:
                to[0] = from[0]
                to[1] = from[1]
                to[2] = from[2]
                to[3] = samples == 4 ? from[3] : Sample.max
            }
        }
    }
}
#endif
