#if TIFF
// Compiled only with the `TIFF` package trait, so that a build without it never
// imports CTIFF and needs no libtiff headers.
import CTIFF
import Foundation
import WebImageCore

/// Writes an image's frames as TIFF pages with libtiff: contiguous RGB or RGBA
/// (unassociated alpha), 8 or 16 bits per sample, Deflate with the horizontal predictor.
struct TIFFPageWriter {
    /// The image to write.
    let image: Image
    /// Which frames to write.
    let options: ImageEncodeOptions

    /// The encoded file, reading the options' cancellation before each page.
    func write() throws(ImageError) -> Data {
        let stream = TIFFMemoryStream()
        guard let tiff = stream.open(mode: "w", maxAllocation: Int.max) else {
            throw ImageError(.encodingFailed, stream.lastError(or: "libtiff could not start a TIFF"))
        }
        var closed = false
        // libtiff holds the stream unretained and flushes into it in TIFFClose, also when a
        // failure closes the file early: the stream must live until then.
        defer { if !closed { withExtendedLifetime(stream) { TIFFClose(tiff) } } }
        let frames = options.firstFrameOnly ? [image.frames[0]] : image.frames
        for (index, frame) in frames.enumerated() {
            try options.cancellation?.check(before: "page \(index) of the TIFF")
            try writePage(frame.bitmap, to: tiff, page: index, of: frames.count, stream: stream)
        }
        closed = true
        TIFFClose(tiff)
        return Data(stream.written)
    }

    private func writePage(
        _ bitmap: Bitmap, to tiff: OpaquePointer, page: Int, of pageCount: Int, stream: TIFFMemoryStream
    ) throws(ImageError) {
        let channels = image.hasAlpha ? 4 : 3
        let bytesPerSample = bitmap.pixelFormat == .rgba16 ? 2 : 1
        let fields: [(UInt32, UInt32)] = [
            (UInt32(TIFFTAG_IMAGEWIDTH), UInt32(bitmap.width)),
            (UInt32(TIFFTAG_IMAGELENGTH), UInt32(bitmap.height)),
            (UInt32(TIFFTAG_ROWSPERSTRIP), UInt32(max(1, (64 << 10) / max(1, bitmap.width * channels * bytesPerSample)))),
        ]
        let shortFields: [(UInt32, UInt16)] = [
            (UInt32(TIFFTAG_BITSPERSAMPLE), UInt16(8 * bytesPerSample)),
            (UInt32(TIFFTAG_SAMPLESPERPIXEL), UInt16(channels)),
            (UInt32(TIFFTAG_PHOTOMETRIC), UInt16(PHOTOMETRIC_RGB)),
            (UInt32(TIFFTAG_PLANARCONFIG), UInt16(PLANARCONFIG_CONTIG)),
            (UInt32(TIFFTAG_COMPRESSION), UInt16(COMPRESSION_ADOBE_DEFLATE)),
            (UInt32(TIFFTAG_PREDICTOR), UInt16(PREDICTOR_HORIZONTAL)),
            (UInt32(TIFFTAG_ORIENTATION), UInt16(ORIENTATION_TOPLEFT)),
        ]
        var accepted =
            fields.allSatisfy { ctiff_set_uint32(tiff, $0.0, $0.1) == 1 }
            && shortFields.allSatisfy { ctiff_set_uint16(tiff, $0.0, $0.1) == 1 }
        if pageCount > 1 {
            accepted = accepted && ctiff_set_uint32(tiff, UInt32(TIFFTAG_SUBFILETYPE), UInt32(FILETYPE_PAGE)) == 1
        }
        if options.colorProfile == .keep, let profile = image.colorProfile {
            accepted =
                accepted
                && profile.data.withUnsafeBytes { ctiff_set_icc_profile(tiff, UInt32($0.count), $0.baseAddress) == 1 }
        }
        if channels == 4 {
            var unassociated = UInt16(EXTRASAMPLE_UNASSALPHA)
            accepted = accepted && ctiff_set_extra_samples(tiff, 1, &unassociated) == 1
        }
        guard accepted else {
            throw ImageError(.encodingFailed, stream.lastError(or: "libtiff refused the TIFF fields"))
        }
        let rowBytes = bitmap.width * channels * bytesPerSample
        var row = [UInt8](repeating: 0, count: rowBytes)
        let pixelBytes = bitmap.pixelFormat.bytesPerPixel
        for y in 0..<bitmap.height {
            bitmap.pixels.withUnsafeBytes { source in
                row.withUnsafeMutableBytes { target in
                    if channels == 4 {
                        target.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[y * rowBytes..<(y + 1) * rowBytes]))
                    } else {
                        let sampleBytes = 3 * bytesPerSample
                        for x in 0..<bitmap.width {
                            let from = source.baseAddress! + (y * bitmap.width + x) * pixelBytes
                            (target.baseAddress! + x * sampleBytes).copyMemory(from: from, byteCount: sampleBytes)
                        }
                    }
                }
            }
            let status = row.withUnsafeMutableBytes { TIFFWriteScanline(tiff, $0.baseAddress, UInt32(y), 0) }
            guard status == 1 else {
                throw ImageError(.encodingFailed, stream.lastError(or: "libtiff could not write row \(y)"))
            }
        }
        guard TIFFWriteDirectory(tiff) == 1 else {
            throw ImageError(.encodingFailed, stream.lastError(or: "libtiff could not finish page \(page + 1)"))
        }
    }
}
#endif
