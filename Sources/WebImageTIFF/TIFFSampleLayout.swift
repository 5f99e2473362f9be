#if TIFF
// Compiled only with the `TIFF` package trait, so that a build without it never
// imports CTIFF and needs no libtiff headers.
import CTIFF
import WebImageCore

/// The sample layouts read straight from strips and tiles instead of through libtiff's
/// RGBA interface: grey, RGB or CMYK (grey and RGB with or without unassociated alpha),
/// contiguous or with each sample in its own plane, in unsigned 8-, 16- or 32-bit
/// integers, signed 32-bit integers, or 32- and 64-bit floats (libtiff undoes any
/// predictor, the floating-point one included). 8-bit samples give ``PixelFormat/rgba8``;
/// the others ``PixelFormat/rgba16``: 32-bit integers keep their top 16 bits (negative
/// signed values are black), floats are clamped to 0…1 as libvips does when it saves to an
/// integer format (for CMYK, 1 is full ink, as TIFF's default sample range says). CMYK
/// comes out as ink in the four channels, for ``TIFFPageReader`` to turn into RGB. Every
/// other layout goes through the RGBA interface.
struct TIFFSampleLayout: Sendable, Equatable {
    /// How a sample is stored.
    enum Kind: Sendable, Equatable {
        case unsigned
        case signed
        case float
    }

    /// Samples per pixel: 1 or 2 for grey (with alpha), 3 or 4 for RGB (with alpha), 4 for CMYK.
    let samplesPerPixel: Int
    /// 8, 16, 32 or 64.
    let bitsPerSample: Int
    /// How each sample is stored.
    let kind: Kind
    /// Whether the samples are ink: cyan, magenta, yellow and black.
    let isCMYK: Bool
    /// Whether each sample is stored in a plane of its own (planar configuration
    /// "separate") rather than beside the other samples of its pixel.
    let isPlanar: Bool

    /// The layout of the current page, or `nil` when it is not one of the direct layouts.
    init?(_ tiff: OpaquePointer) {
        var bits: UInt16 = 0, samples: UInt16 = 0, format: UInt16 = 0, planar: UInt16 = 0, photometric: UInt16 = 0
        guard ctiff_get_uint16(tiff, UInt32(TIFFTAG_BITSPERSAMPLE), &bits) == 1,
            ctiff_get_uint16(tiff, UInt32(TIFFTAG_SAMPLESPERPIXEL), &samples) == 1,
            ctiff_get_uint16(tiff, UInt32(TIFFTAG_SAMPLEFORMAT), &format) == 1,
            ctiff_get_uint16(tiff, UInt32(TIFFTAG_PLANARCONFIG), &planar) == 1,
            ctiff_get_uint16(tiff, UInt32(TIFFTAG_PHOTOMETRIC), &photometric) == 1,
            planar == PLANARCONFIG_CONTIG || planar == PLANARCONFIG_SEPARATE
        else { return nil }
        switch (Int32(format), bits) {
        case (SAMPLEFORMAT_UINT, 8), (SAMPLEFORMAT_UINT, 16), (SAMPLEFORMAT_UINT, 32): kind = .unsigned
        case (SAMPLEFORMAT_INT, 32): kind = .signed
        case (SAMPLEFORMAT_IEEEFP, 32), (SAMPLEFORMAT_IEEEFP, 64): kind = .float
        default: return nil
        }
        let colours: Int
        switch Int32(photometric) {
        case PHOTOMETRIC_MINISBLACK: colours = 1
        case PHOTOMETRIC_RGB: colours = 3
        case PHOTOMETRIC_SEPARATED:
            var inkSet: UInt16 = 0
            _ = ctiff_get_uint16(tiff, UInt32(TIFFTAG_INKSET), &inkSet)
            guard inkSet == INKSET_CMYK, samples == 4 else { return nil }
            colours = 4
        default: return nil
        }
        var extraCount: UInt16 = 0
        var extraTypes: UnsafeMutablePointer<UInt16>?
        _ = ctiff_get_extra_samples(tiff, &extraCount, &extraTypes)
        switch (Int(samples) - colours, Int(extraCount)) {
        case (0, 0):
            break
        case (1, 1) where colours < 4 && extraTypes?.pointee == UInt16(EXTRASAMPLE_UNASSALPHA):
            break
        default:
            return nil
        }
        samplesPerPixel = Int(samples)
        bitsPerSample = Int(bits)
        isCMYK = colours == 4
        isPlanar = planar == PLANARCONFIG_SEPARATE
    }

    /// Whether the layout has an alpha sample.
    var hasAlpha: Bool { !isCMYK && (samplesPerPixel == 2 || samplesPerPixel == 4) }

    /// The output pixel format: 8-bit samples stay 8-bit, the others become 16-bit.
    var pixelFormat: PixelFormat { bitsPerSample == 8 ? .rgba8 : .rgba16 }

    /// How many planes a strip or tile belongs to: one per sample when planar, else one.
    var planeCount: Int { isPlanar ? samplesPerPixel : 1 }

    /// Bytes of one stored pixel within one plane.
    var bytesPerPixel: Int { (isPlanar ? 1 : samplesPerPixel) * bitsPerSample / 8 }

    /// Expands `count` stored pixels of `plane` (0 when contiguous) at `source` into the
    /// ``pixelFormat`` pixels at `target` (both in the host's byte order, as libtiff
    /// returns samples), filling the channels that plane's samples stand for. Plane 0
    /// also makes the pixels opaque when there is no alpha sample, so it must come first.
    func expand(_ source: UnsafeRawPointer, plane: Int, into target: UnsafeMutableRawPointer, count: Int) {
        let samples = isPlanar ? plane..<plane + 1 : 0..<samplesPerPixel
        switch (kind, bitsPerSample) {
        case (.unsigned, 8):
            expand(source.assumingMemoryBound(to: UInt8.self), samples: samples, into: target.assumingMemoryBound(to: UInt8.self), count: count) { $0 }
        case (.unsigned, 16):
            expand(source.assumingMemoryBound(to: UInt16.self), samples: samples, into: target.assumingMemoryBound(to: UInt16.self), count: count) { $0 }
        case (.unsigned, _):
            expand(source.assumingMemoryBound(to: UInt32.self), samples: samples, into: target.assumingMemoryBound(to: UInt16.self), count: count) {
                UInt16(truncatingIfNeeded: $0 >> 16)
            }
        case (.signed, _):
            expand(source.assumingMemoryBound(to: Int32.self), samples: samples, into: target.assumingMemoryBound(to: UInt16.self), count: count) {
                UInt16(truncatingIfNeeded: max(0, $0) >> 15)
            }
        case (.float, 32):
            expand(source.assumingMemoryBound(to: Float.self), samples: samples, into: target.assumingMemoryBound(to: UInt16.self), count: count) {
                TIFFSampleLayout.clamped(Double($0))
            }
        case (.float, _):
            expand(source.assumingMemoryBound(to: Double.self), samples: samples, into: target.assumingMemoryBound(to: UInt16.self), count: count) {
                TIFFSampleLayout.clamped($0)
            }
        }
    }

    /// A float sample clamped to 0…1 and scaled to 16 bits (NaN is black).
    private static func clamped(_ value: Double) -> UInt16 {
        guard value > 0 else { return 0 }
        return value >= 1 ? .max : UInt16((value * 65535).rounded())
    }

    /// Expands the stored `samples` of each pixel (all of them when contiguous, one when
    /// planar) into the channels they stand for: grey into red, green and blue, everything
    /// else into the channel of its own index.
    private func expand<Sample, Output: FixedWidthInteger & UnsignedInteger>(
        _ source: UnsafePointer<Sample>, samples: Range<Int>, into target: UnsafeMutablePointer<Output>, count: Int,
        _ convert: (Sample) -> Output
    ) {
        let isGrey = samplesPerPixel <= 2
        let makesOpaque = samples.lowerBound == 0 && (samplesPerPixel == 1 || samplesPerPixel == 3)
        // Contiguous pages, most of them, keep a fixed body per pixel: no loop over samples.
        if !isPlanar {
            for pixel in 0..<count {
                let from = source + pixel * samplesPerPixel
                let to = target + pixel * 4
                if isGrey {
                    let grey = convert(from[0])
                    to[0] = grey
                    to[1] = grey
                    to[2] = grey
                    to[3] = samplesPerPixel == 2 ? convert(from[1]) : Output.max
                } else {
                    to[0] = convert(from[0])
                    to[1] = convert(from[1])
                    to[2] = convert(from[2])
                    to[3] = samplesPerPixel == 4 ? convert(from[3]) : Output.max
                }
            }
            return
        }
        for pixel in 0..<count {
            let from = source + pixel * samples.count
            let to = target + pixel * 4
            for (offset, sample) in samples.enumerated() {
                let value = convert(from[offset])
                if isGrey && sample == 0 {
                    to[0] = value
                    to[1] = value
                    to[2] = value
                } else {
                    to[isGrey ? 3 : sample] = value
                }
            }
            if makesOpaque { to[3] = Output.max }
        }
    }
}
#endif
