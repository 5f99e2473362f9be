#if AVIF
// Compiled only with the `AVIF` package trait, so that a build without it never imports
// CAVIF and needs no libavif headers.
import CAVIF
import Foundation
import WebImageCore

/// Writes an image's frames as an AVIF still image or sequence with libavif's encoder.
struct AVIFWriter {
    /// The image to write.
    let image: Image
    /// Quality, lossless, frame selection and the copyright to write.
    let options: ImageEncodeOptions
    /// libavif's speed, 0…10.
    let speed: Int

    /// The timescale of a sequence: durations are written in milliseconds.
    private static let timescale: UInt64 = 1000

    /// The encoded file, reading the options' cancellation before each frame (a frame's
    /// encode, inside libaom, cannot be interrupted).
    func write() throws(ImageError) -> Data {
        guard let encoder = avifEncoderCreate() else { throw ImageError(.encodingFailed, "libavif could not create an encoder") }
        defer { avifEncoderDestroy(encoder) }
        let quantizer = options.lossless ? Int32(AVIF_QUANTIZER_LOSSLESS) : Int32(((1 - options.quality) * 63).rounded())
        encoder.pointee.maxThreads = 1
        encoder.pointee.speed = Int32(speed)
        encoder.pointee.timescale = AVIFWriter.timescale
        encoder.pointee.minQuantizer = quantizer
        encoder.pointee.maxQuantizer = quantizer
        encoder.pointee.minQuantizerAlpha = quantizer
        encoder.pointee.maxQuantizerAlpha = quantizer
        let frames = options.firstFrameOnly ? [image.frames[0]] : image.frames
        let flags = frames.count == 1 ? avifAddImageFlags(AVIF_ADD_IMAGE_FLAG_SINGLE.rawValue) : avifAddImageFlags(AVIF_ADD_IMAGE_FLAG_NONE.rawValue)
        for (index, frame) in frames.enumerated() {
            try options.cancellation?.check(before: "frame \(index) of the AVIF sequence")
            let yuv = try planes(of: frame.bitmap)
            defer { avifImageDestroy(yuv) }
            // libavif writes the metadata its first image carries.
            if index == 0, let copyright = options.copyright { Self.attach(copyright, to: yuv) }
            let duration = UInt64(max(1, (frame.duration * Double(AVIFWriter.timescale)).rounded()))
            let result = avifEncoderAddImage(encoder, yuv, duration, flags)
            guard result == AVIF_RESULT_OK else {
                throw ImageError(avif: result, "avifEncoderAddImage", diagnostic: encoder.pointee.diag.message, failure: .encodingFailed)
            }
        }
        var output = avifRWData()
        let result = avifEncoderFinish(encoder, &output)
        defer { avifRWDataFree(&output) }
        guard result == AVIF_RESULT_OK, let bytes = output.data else {
            throw ImageError(avif: result, "avifEncoderFinish", diagnostic: encoder.pointee.diag.message, failure: .encodingFailed)
        }
        return Data(bytes: bytes, count: output.size)
    }

    /// Gives `image` the EXIF payload and XMP packet of `copyright`, which libavif then
    /// writes as the file's `Exif` and `mime` (XMP) items.
    private static func attach(_ copyright: ImageCopyright, to image: UnsafeMutablePointer<avifImage>) {
        copyright.exifPayload?.withUnsafeBufferPointer { avifImageSetMetadataExif(image, $0.baseAddress, $0.count) }
        copyright.xmpPacket?.withUnsafeBufferPointer { avifImageSetMetadataXMP(image, $0.baseAddress, $0.count) }
    }

    /// The YUV (and alpha) planes of `bitmap`, full range, in sRGB or with the image's ICC
    /// profile when the options keep it.
    private func planes(of bitmap: Bitmap) throws(ImageError) -> UnsafeMutablePointer<avifImage> {
        let depth: UInt32 = bitmap.pixelFormat == .rgba16 ? 10 : 8
        let yuvFormat = options.lossless ? AVIF_PIXEL_FORMAT_YUV444 : AVIF_PIXEL_FORMAT_YUV420
        guard let yuv = avifImageCreate(UInt32(bitmap.width), UInt32(bitmap.height), depth, yuvFormat) else {
            throw ImageError(.encodingFailed, "libavif could not create a \(bitmap.size) image")
        }
        yuv.pointee.yuvRange = AVIF_RANGE_FULL
        if options.colorProfile == .keep, let profile = image.colorProfile {
            // The profile, not the CICP primaries and transfer, describes the colours.
            profile.data.withUnsafeBytes { icc in
                avifImageSetProfileICC(yuv, icc.baseAddress?.assumingMemoryBound(to: UInt8.self), icc.count)
            }
            yuv.pointee.colorPrimaries = avifColorPrimaries(AVIF_COLOR_PRIMARIES_UNSPECIFIED)
            yuv.pointee.transferCharacteristics = avifTransferCharacteristics(AVIF_TRANSFER_CHARACTERISTICS_UNSPECIFIED)
        } else {
            yuv.pointee.colorPrimaries = avifColorPrimaries(AVIF_COLOR_PRIMARIES_BT709)
            yuv.pointee.transferCharacteristics = avifTransferCharacteristics(AVIF_TRANSFER_CHARACTERISTICS_SRGB)
        }
        if options.lossless {
            yuv.pointee.matrixCoefficients = avifMatrixCoefficients(AVIF_MATRIX_COEFFICIENTS_IDENTITY)
        }
        var rgb = avifRGBImage()
        avifRGBImageSetDefaults(&rgb, yuv)
        rgb.format = AVIF_RGB_FORMAT_RGBA
        rgb.depth = UInt32(bitmap.pixelFormat.bitsPerComponent)
        rgb.rowBytes = UInt32(bitmap.width * bitmap.pixelFormat.bytesPerPixel)
        rgb.ignoreAlpha = image.hasAlpha ? 0 : 1
        let result = bitmap.pixels.withUnsafeBytes { pixels in
            rgb.pixels = UnsafeMutablePointer(mutating: pixels.baseAddress?.assumingMemoryBound(to: UInt8.self))
            // libavif only reads the RGB pixels when converting to YUV.
            return avifImageRGBToYUV(yuv, &rgb)
        }
        guard result == AVIF_RESULT_OK else {
            avifImageDestroy(yuv)
            throw ImageError(avif: result, "avifImageRGBToYUV", failure: .encodingFailed)
        }
        return yuv
    }
}
#endif
