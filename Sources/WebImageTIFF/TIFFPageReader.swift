#if TIFF
// Compiled only with the `TIFF` package trait, so that a build without it never
// imports CTIFF and needs no libtiff headers.
import CTIFF
import Foundation
import WebImageCore

/// Reads the pages of one TIFF: the ``TIFFSampleLayout``s straight from strips and tiles
/// (``TIFFDirectReader``), everything else through libtiff's RGBA interface, which handles
/// every photometric interpretation, bit depth, layout and compression libtiff knows.
struct TIFFPageReader {
    /// The bytes, wrapped for libtiff.
    let stream: TIFFMemoryStream
    /// Limits, page selection and output size.
    let options: ImageDecodeOptions

    /// Decodes the first page, or every page, into an image.
    ///
    /// A page after the first that libtiff cannot read ends the image there; a first page
    /// that it cannot read is an error.
    ///
    /// Pages count as an animation's frames do: a file of more pages than
    /// `ImageDecodeOptions.maxFrameCount`, or whose pages hold more pixels than
    /// `ImageDecodeOptions.maxAnimationWork`, is refused (`ImageError.Code.imageTooLarge`)
    /// before the page that would pass the limit is decoded — the page count and the first
    /// page's size before any page is.
    func readImage() throws(ImageError) -> Image {
        guard let tiff = stream.open(mode: "r", maxAllocation: options.maxTotalBytes) else {
            throw ImageError(.badImageData, stream.lastError(or: "libtiff could not open the TIFF"))
        }
        defer { TIFFClose(tiff) }
        let pageCount = options.firstFrameOnly ? 1 : max(1, Int(TIFFNumberOfDirectories(tiff)))
        var frames: [ImageFrame] = []
        var target: PixelSize?
        let profile = TIFFPageReader.colorProfile(of: tiff)
        // The largest page so far stands for every page in the frames × pixels budget.
        var largestPage = pageCount > 1 ? pageSize(tiff) : nil
        if let largestPage {
            try options.checkAnimationWork(canvas: largestPage, frameCount: pageCount)
        }
        for index in 0..<pageCount {
            do throws(ImageError) {
                guard index == 0 || TIFFSetDirectory(tiff, tdir_t(index)) == 1 else {
                    throw ImageError(.badImageData, stream.lastError(or: "libtiff could not read page \(index + 1)"))
                }
                if index > 0, let page = pageSize(tiff), let largest = largestPage {
                    let larger = (page.pixelCount ?? .max) > (largest.pixelCount ?? .max) ? page : largest
                    largestPage = larger
                    try options.checkAnimationWork(canvas: larger, frameCount: index + 1)
                }
                let bitmap = try readPage(tiff, pagesSoFar: frames.count, profile: profile)
                let size = target ?? options.targetSize(forSource: bitmap.size, frameCount: pageCount)
                target = size
                try frames.append(ImageFrame(bitmap: bitmap.resized(to: size)))
            } catch {
                if frames.isEmpty || error.code == .imageTooLarge { throw error }
                break
            }
        }
        if Set(frames.map(\.bitmap.pixelFormat)).count > 1 {
            frames = try frames.map { frame throws(ImageError) in ImageFrame(bitmap: try frame.bitmap.convertedToRGBA8()) }
        }
        // A CMYK page's profile describes its ink, which is RGB by now.
        let rgbProfile = TIFFPageReader.isCMYK(tiff) ? nil : profile
        return Image(frames: frames, scale: options.scaleFactor ?? 1, format: .tiff, colorProfile: rgbProfile)
    }

    /// The width and height the current page declares; `nil` when it declares none.
    private func pageSize(_ tiff: OpaquePointer) -> PixelSize? {
        var width: UInt32 = 0, height: UInt32 = 0
        guard ctiff_get_uint32(tiff, UInt32(TIFFTAG_IMAGEWIDTH), &width) == 1,
            ctiff_get_uint32(tiff, UInt32(TIFFTAG_IMAGELENGTH), &height) == 1
        else { return nil }
        return PixelSize(width: Int(width), height: Int(height))
    }

    /// Whether the current page stores ink (photometric interpretation "separated").
    private static func isCMYK(_ tiff: OpaquePointer) -> Bool {
        var photometric: UInt16 = 0
        return ctiff_get_uint16(tiff, UInt32(TIFFTAG_PHOTOMETRIC), &photometric) == 1 && Int32(photometric) == PHOTOMETRIC_SEPARATED
    }

    /// The ICC profile of the current page (tag 34675); the first page's stands for the image.
    private static func colorProfile(of tiff: OpaquePointer) -> ColorProfile? {
        var count: UInt32 = 0
        var data: UnsafeMutableRawPointer?
        guard ctiff_get_icc_profile(tiff, &count, &data) == 1, let data, count > 0 else { return nil }
        return ColorProfile(data: Data(bytes: data, count: Int(count)))
    }

    /// Decodes the current page, upright, with straight alpha: RGBA16 for samples wider than
    /// 8 bits, else RGBA8; CMYK goes through `profile` when it is a CMYK one. `pagesSoFar`
    /// pages already count against the memory limit.
    private func readPage(_ tiff: OpaquePointer, pagesSoFar: Int, profile: ColorProfile?) throws(ImageError) -> Bitmap {
        var width: UInt32 = 0, height: UInt32 = 0
        guard ctiff_get_uint32(tiff, UInt32(TIFFTAG_IMAGEWIDTH), &width) == 1,
            ctiff_get_uint32(tiff, UInt32(TIFFTAG_IMAGELENGTH), &height) == 1
        else { throw ImageError(.badImageData, stream.lastError(or: "the TIFF page has no size")) }
        let size = PixelSize(width: Int(width), height: Int(height))
        try options.checkAllocation(size, frameCount: pagesSoFar + 1)
        var orientation: UInt16 = 1
        _ = ctiff_get_uint16(tiff, UInt32(TIFFTAG_ORIENTATION), &orientation)
        if !(1...8).contains(orientation) { orientation = 1 }

        // libtiff reports some damage (a broken LZW stream, say) as an error but still
        // returns the rows it made up; such a page is refused like one it gave up on.
        stream.clearError()
        if let layout = TIFFSampleLayout(tiff) {
            try options.checkAllocation(size, frameCount: pagesSoFar + 1, bytesPerPixel: layout.pixelFormat.bytesPerPixel)
            guard var bitmap = try TIFFDirectReader(tiff: tiff, layout: layout, size: size).read(), !stream.reportedError else {
                throw readError("libtiff could not decode the TIFF page")
            }
            if layout.isCMYK {
                TIFFInkConversion.convertToRGB(&bitmap, profile: profile)
            }
            return orientation == 1 ? bitmap : try bitmap.oriented(ImageOrientation(exifValue: Int(orientation)))
        }
        var reason = [CChar](repeating: 0, count: 1024)
        guard TIFFRGBAImageOK(tiff, &reason) == 1 else {
            throw ImageError(
                .unsupportedFormat, "libtiff cannot convert this TIFF page to RGBA: \(String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
        }
        var succeeded = false
        var pixels = try [UInt8](unsafeUninitializedImageSized: size.width, size.height, 4) { buffer, initialized in
            let raster = UnsafeMutableRawPointer(buffer.baseAddress!).assumingMemoryBound(to: UInt32.self)
            // Asking for the page's own orientation makes libtiff copy rows as stored; the
            // orientation is then applied below, including the transposing ones (5–8).
            succeeded = TIFFReadRGBAImageOriented(tiff, width, height, raster, Int32(orientation), 1) == 1
            if !succeeded {
                UnsafeMutableRawBufferPointer(buffer).initializeMemory(as: UInt8.self, repeating: 0)
            }
            initialized = buffer.count
        }
        guard succeeded, !stream.reportedError else { throw readError("libtiff could not decode the TIFF page") }
        TIFFPageReader.unpremultiply(&pixels)
        let bitmap = Bitmap(width: size.width, height: size.height, pixels: pixels)
        return orientation == 1 ? bitmap : try bitmap.oriented(ImageOrientation(exifValue: Int(orientation)))
    }

    /// The error for a page libtiff failed to read: `ImageError.Code.unsupportedFormat`
    /// when libtiff says it does not handle the page ("Sorry, …"), else bad data.
    private func readError(_ fallback: String) -> ImageError {
        let message = stream.lastError(or: fallback)
        return ImageError(message.hasPrefix("Sorry") ? .unsupportedFormat : .badImageData, message)
    }

    /// libtiff's RGBA output premultiplies colour by alpha; `Bitmap` keeps it straight.
    static func unpremultiply(_ pixels: inout [UInt8]) {
        pixels.withUnsafeMutableBufferPointer { buffer in
            var index = 0
            while index < buffer.count {
                let alpha = UInt32(buffer[index + 3])
                if alpha != 255 && alpha != 0 {
                    for channel in index..<index + 3 {
                        buffer[channel] = UInt8(min(255, (UInt32(buffer[channel]) * 255 + alpha / 2) / alpha))
                    }
                }
                index += 4
            }
        }
    }
}
#endif
