#if AVIF
// Compiled only with the `AVIF` package trait, so that a build without it never imports
// CAVIF and needs no libavif headers.
import CAVIF
import Foundation
import WebImageCore

/// One libavif decoder over bytes that outlive it: parsed on creation (the container
/// only, no AV1 decoding), then asked for frames in any order.
///
/// libavif's own limits are set before parsing: the pixel count of a frame
/// (`imageSizeLimit`, which dav1d also enforces on the AV1 sequence header), the width
/// and height (`imageDimensionLimit`) and the number of frames (`imageCountLimit`). Used
/// by one thread at a time.
final class AVIFDecoderSession {
    /// The libavif decoder; its `image` is the current frame's YUV planes.
    private let decoder: UnsafeMutablePointer<avifDecoder>
    /// The frame size as displayed: after the `clap` crop and the `irot` turn.
    let canvasSize: PixelSize
    /// The number of frames (1 for a still image).
    let frameCount: Int
    /// Whether the file declares an alpha plane.
    let hasAlpha: Bool
    /// 16-bit output for 10- and 12-bit files, else 8-bit.
    let pixelFormat: PixelFormat
    /// The ICC profile of the `colr` box, if the file has one.
    let colorProfile: ColorProfile?
    /// The owner of the bytes libavif reads, released only after `avifDecoderDestroy`
    /// (libavif does not copy them: they must exist until the decoder is destroyed).
    private let bytesOwner: AnyObject?

    /// Parses the container in `bytes` within `options`' pixel and frame limits. The bytes
    /// must outlive the session: give their `owner` when the session may outlive the
    /// caller's scope, and the session keeps it until libavif's decoder is gone.
    ///
    /// - Throws: ``ImageError/Code/imageTooLarge`` for a declared frame past
    ///   ``ImageDecodeOptions/maxPixelCount``, ``ImageError/Code/badImageData`` for a
    ///   container libavif cannot parse.
    init(bytes: UnsafeRawBufferPointer, owner: AnyObject? = nil, options: ImageDecodeOptions) throws(ImageError) {
        guard let decoder = avifDecoderCreate() else {
            throw ImageError(.badImageData, "libavif could not create a decoder")
        }
        self.decoder = decoder
        bytesOwner = owner
        decoder.pointee.maxThreads = 1
        decoder.pointee.imageSizeLimit = UInt32(clamping: min(options.maxPixelCount, Int(AVIF_DEFAULT_IMAGE_SIZE_LIMIT)))
        decoder.pointee.imageDimensionLimit = UInt32(AVIF_DEFAULT_IMAGE_DIMENSION_LIMIT)
        decoder.pointee.imageCountLimit = UInt32(clamping: max(1, options.maxFrameCount))
        decoder.pointee.ignoreExif = 1
        decoder.pointee.ignoreXMP = 1
        // Lenient as browsers are: a missing `pixi` box, a `clap` box libavif finds invalid
        // for the subsampling (an odd offset on 4:2:0; the crop is made on the RGB pixels)
        // or an alpha plane without its `ispe` box is no reason to refuse the picture.
        decoder.pointee.strictFlags = avifStrictFlags(AVIF_STRICT_DISABLED.rawValue)
        var result = avifDecoderSetIOMemory(decoder, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
        if result == AVIF_RESULT_OK {
            result = avifDecoderParse(decoder)
        }
        guard result == AVIF_RESULT_OK, let image = decoder.pointee.image else {
            let error = ImageError(avif: result, "avifDecoderParse", diagnostic: decoder.pointee.diag.message)
            avifDecoderDestroy(decoder)
            throw error
        }
        let stored = PixelSize(width: Int(image.pointee.width), height: Int(image.pointee.height))
        do throws(ImageError) {
            try options.checkAllocation(stored)
        } catch {
            avifDecoderDestroy(decoder)
            throw error
        }
        let cropped = AVIFDecoderSession.cropRect(of: image.pointee).map { PixelSize(width: Int($0.width), height: Int($0.height)) } ?? stored
        canvasSize = ImageOrientation(avif: image.pointee).swapsWidthAndHeight ? cropped.transposed : cropped
        frameCount = max(1, Int(decoder.pointee.imageCount))
        hasAlpha = decoder.pointee.alphaPresent != 0
        pixelFormat = image.pointee.depth > 8 ? .rgba16 : .rgba8
        let icc = image.pointee.icc
        colorProfile = icc.data.flatMap { icc.size > 0 ? ColorProfile(data: Data(bytes: $0, count: icc.size)) : nil }
    }

    deinit {
        avifDecoderDestroy(decoder)
    }

    /// Seconds frame `index` shows; 0 for a still image or when the file gives no timing.
    func duration(ofFrame index: Int) -> Double {
        var timing = avifImageTiming()
        guard avifDecoderNthImageTiming(decoder, UInt32(index), &timing) == AVIF_RESULT_OK, timing.duration.isFinite else { return 0 }
        return max(0, timing.duration)
    }

    /// Decodes frame `index` (libavif goes back to the nearest key frame itself) into an
    /// upright bitmap of ``canvasSize`` with straight alpha.
    ///
    /// - Throws: ``ImageError/Code/badImageData`` when the AV1 data is corrupt or missing,
    ///   ``ImageError/Code/imageTooLarge`` when the frame is larger than its container said
    ///   and past the limits.
    func decodeFrame(at index: Int, options: ImageDecodeOptions) throws(ImageError) -> Bitmap {
        let result = avifDecoderNthImage(decoder, UInt32(index))
        guard result == AVIF_RESULT_OK, let image = decoder.pointee.image else {
            throw ImageError(avif: result, "avifDecoderNthImage(\(index))", diagnostic: decoder.pointee.diag.message)
        }
        try options.checkAllocation(PixelSize(width: Int(image.pointee.width), height: Int(image.pointee.height)), bytesPerPixel: pixelFormat.bytesPerPixel)
        return try convert(image, crop: AVIFDecoderSession.cropRect(of: image.pointee), orientation: ImageOrientation(avif: image.pointee))
    }

    /// Converts the YUV planes of `image` to RGBA in memory this session allocates, crops
    /// it to `crop` and turns the result upright.
    private func convert(_ image: UnsafeMutablePointer<avifImage>, crop: avifCropRect?, orientation: ImageOrientation) throws(ImageError) -> Bitmap {
        var rgb = avifRGBImage()
        avifRGBImageSetDefaults(&rgb, image)
        rgb.format = AVIF_RGB_FORMAT_RGBA
        rgb.depth = UInt32(pixelFormat.bitsPerComponent)
        rgb.rowBytes = rgb.width * UInt32(pixelFormat.bytesPerPixel)
        let width = Int(rgb.width), height = Int(rgb.height)
        var status = AVIF_RESULT_OK
        let pixels = try [UInt8](unsafeUninitializedImageSized: width, height, pixelFormat.bytesPerPixel) { buffer, initialized in
            rgb.pixels = buffer.baseAddress
            status = avifImageYUVToRGB(image, &rgb)
            initialized = buffer.count
        }
        guard status == AVIF_RESULT_OK else { throw ImageError(avif: status, "avifImageYUVToRGB") }
        var bitmap = Bitmap(width: width, height: height, pixelFormat: pixelFormat, pixels: pixels)
        if let crop {
            bitmap = try AVIFDecoderSession.crop(bitmap, to: crop)
        }
        return orientation == .up ? bitmap : try bitmap.oriented(orientation)
    }

    /// The rows and columns of `bitmap` inside `rect`; throws
    /// ``ImageError/Code/imageTooLarge`` when the copy cannot be had.
    private static func crop(_ bitmap: Bitmap, to rect: avifCropRect) throws(ImageError) -> Bitmap {
        let bytesPerPixel = bitmap.pixelFormat.bytesPerPixel
        let rowBytes = Int(rect.width) * bytesPerPixel
        var pixels: [UInt8] = []
        pixels.reserveCapacity(try [UInt8].imageSizedCount([rowBytes, Int(rect.height)]))
        bitmap.pixels.withUnsafeBufferPointer { source in
            for y in Int(rect.y)..<Int(rect.y + rect.height) {
                let start = (y * bitmap.width + Int(rect.x)) * bytesPerPixel
                pixels.append(contentsOf: source[start..<start + rowBytes])
            }
        }
        return Bitmap(width: Int(rect.width), height: Int(rect.height), pixelFormat: bitmap.pixelFormat, pixels: pixels)
    }

    /// The `clap` crop of `image` as a rectangle of its pixels, or `nil` when it has none
    /// or the crop is not whole pixels (the whole image then shows). It is computed as for
    /// 4:4:4, since the crop is made after conversion to RGB.
    private static func cropRect(of image: avifImage) -> avifCropRect? {
        guard image.transformFlags & UInt32(AVIF_TRANSFORM_CLAP.rawValue) != 0 else { return nil }
        var rect = avifCropRect()
        var clap = image.clap
        var diagnostics = avifDiagnostics()
        guard avifCropRectConvertCleanApertureBox(&rect, &clap, image.width, image.height, AVIF_PIXEL_FORMAT_YUV444, &diagnostics) != 0,
            rect.width > 0, rect.height > 0, rect.width != image.width || rect.height != image.height
        else { return nil }
        return rect
    }
}
#endif
