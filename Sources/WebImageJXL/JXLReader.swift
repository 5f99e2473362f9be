#if JXL
// Compiled only with the `JXL` package trait, so that a build without it never imports
// CJXL and needs no libjxl headers.
import CJXL
import Foundation
import WebImageCore

/// Runs libjxl's decoder over bytes in memory: the header only, every frame, or as much
/// of the first frame as the bytes received so far hold.
///
/// The decoder runs on the calling thread (no parallel runner), applies the orientation,
/// composes animation frames onto the canvas (coalescing) and undoes premultiplied alpha.
/// The size in the header is checked against the options before an output buffer
/// exists, each frame against the animation limits before it is decoded, and libjxl's
/// managed allocations are capped at `ImageDecodeOptions.maxTotalBytes`.
struct JXLReader {
    /// What the header and frame headers declare.
    struct Header {
        /// The size as displayed (after orientation).
        var size: PixelSize
        /// Whether there is an alpha channel.
        var hasAlpha: Bool
        /// 16-bit output for more than 8 bits per sample.
        var pixelFormat: PixelFormat
        /// How many times an animation plays; 0 means forever.
        var loopCount: Int
        /// Seconds each displayed frame shows (0 for a still image); one per frame.
        var frameDurations: [Double]
    }

    /// The bytes.
    let bytes: UnsafeRawBufferPointer
    /// Limits, frame selection and output size.
    let options: ImageDecodeOptions

    /// The header and every frame header, without decoding pixels.
    func readHeader() throws(ImageError) -> Header {
        var header: Header?
        try run(events: JXL_DEC_BASIC_INFO.rawValue | JXL_DEC_FRAME.rawValue, isComplete: true) { event, decoder throws(ImageError) in
            switch event {
            case JXL_DEC_BASIC_INFO:
                header = try basicHeader(decoder)
            case JXL_DEC_FRAME:
                header?.frameDurations.append(try frameDuration(decoder))
            default:
                break
            }
            return true
        }
        guard var header else { throw ImageError(.badImageData, "the JPEG XL stream ends before its header") }
        if header.frameDurations.isEmpty { header.frameDurations = [0] }
        return header
    }

    /// Decodes the image, every frame or the first, at the options' target size; with
    /// `isComplete` false, returns what the bytes so far show of the first frame, or `nil`
    /// when they show nothing yet.
    func readImage(isComplete: Bool = true) throws(ImageError) -> Image? {
        var header: Header?
        var target = PixelSize(width: 1, height: 1)
        var frames: [ImageFrame] = []
        var output: UnsafeMutableRawBufferPointer?
        var partial: Bitmap?
        var profile: ColorProfile?
        defer { output?.deallocate() }
        let events =
            JXL_DEC_BASIC_INFO.rawValue | JXL_DEC_COLOR_ENCODING.rawValue | JXL_DEC_FRAME.rawValue | JXL_DEC_FULL_IMAGE.rawValue
        try run(events: events, isComplete: isComplete) { event, decoder throws(ImageError) in
            switch event {
            case JXL_DEC_BASIC_INFO:
                let basic = try basicHeader(decoder)
                try options.checkAllocation(basic.size, bytesPerPixel: basic.pixelFormat.bytesPerPixel)
                target = options.targetSize(forSource: basic.size, bytesPerPixel: basic.pixelFormat.bytesPerPixel)
                header = basic
            case JXL_DEC_COLOR_ENCODING:
                profile = JXLReader.colorProfile(decoder)
            case JXL_DEC_FRAME:
                guard let declared = header else { break }
                if options.firstFrameOnly && !frames.isEmpty { return false }
                if !frames.isEmpty {
                    try options.checkAnimationWork(canvas: declared.size, frameCount: frames.count + 1)
                    try options.checkAllocation(target, frameCount: frames.count + 1, bytesPerPixel: declared.pixelFormat.bytesPerPixel)
                }
                header?.frameDurations.append(try frameDuration(decoder))
            case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                guard let header else { throw ImageError(.badImageData, "the JPEG XL stream has pixels before its header") }
                if output == nil { output = try allocateOutput(decoder, header: header) }
                var format = JXLReader.pixelFormat(header.pixelFormat)
                guard JxlDecoderSetImageOutBuffer(decoder, &format, output!.baseAddress, output!.count) == JXL_DEC_SUCCESS else {
                    throw ImageError(.badImageData, "libjxl refused the output buffer")
                }
            case JXL_DEC_FULL_IMAGE:
                guard let header, let output else { break }
                let bitmap = JXLReader.bitmap(output, header: header)
                let duration = header.frameDurations.last ?? 0
                try frames.append(ImageFrame(bitmap: bitmap.size == target ? bitmap : bitmap.resized(to: target), duration: duration))
                if options.firstFrameOnly || !isComplete { return false }
            case JXL_DEC_NEED_MORE_INPUT:
                // Only reached for incomplete bytes: show what the first frame has so far.
                if frames.isEmpty, let header, let output, JxlDecoderFlushImage(decoder) == JXL_DEC_SUCCESS {
                    partial = JXLReader.bitmap(output, header: header)
                }
                return false
            default:
                break
            }
            return true
        }
        guard let header else {
            if isComplete { throw ImageError(.badImageData, "the JPEG XL stream ends before its header") }
            return nil
        }
        if frames.isEmpty, let partial {
            try frames.append(ImageFrame(bitmap: partial.size == target ? partial : partial.resized(to: target)))
        }
        guard !frames.isEmpty else {
            if isComplete { throw ImageError(.badImageData, "the JPEG XL stream has no frame") }
            return nil
        }
        return Image(
            frames: frames, loopCount: header.loopCount, scale: options.scaleFactor ?? 1, format: .jxl,
            hasAlpha: header.hasAlpha ? nil : false, colorProfile: profile)
    }

    /// The ICC profile of the pixels libjxl hands out; `nil` when they are plain sRGB (a
    /// structured colour encoding libjxl would only describe with a made-up profile).
    private static func colorProfile(_ decoder: OpaquePointer) -> ColorProfile? {
        var encoding = JxlColorEncoding()
        if JxlDecoderGetColorAsEncodedProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &encoding) == JXL_DEC_SUCCESS,
            encoding.color_space == JXL_COLOR_SPACE_RGB, encoding.white_point == JXL_WHITE_POINT_D65,
            encoding.primaries == JXL_PRIMARIES_SRGB, encoding.transfer_function == JXL_TRANSFER_FUNCTION_SRGB
        {
            return nil
        }
        var size = 0
        guard JxlDecoderGetICCProfileSize(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &size) == JXL_DEC_SUCCESS,
            size > 0, size < 1 << 26
        else { return nil }
        var bytes = [UInt8](repeating: 0, count: size)
        guard JxlDecoderGetColorAsICCProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &bytes, size) == JXL_DEC_SUCCESS else {
            return nil
        }
        return ColorProfile(data: Data(bytes))
    }

    /// Feeds the bytes to a new decoder subscribed to `events` and hands each event to
    /// `handle` until it returns `false`, the stream ends, or libjxl fails.
    private func run(
        events: UInt32, isComplete: Bool, _ handle: (JxlDecoderStatus, OpaquePointer) throws(ImageError) -> Bool
    ) throws(ImageError) {
        let budget = JXLMemoryBudget(maxAllocation: options.maxTotalBytes)
        var manager = budget.manager
        guard let decoder = JxlDecoderCreate(&manager) else { throw ImageError(.badImageData, "libjxl could not create a decoder") }
        defer { withExtendedLifetime(budget) { JxlDecoderDestroy(decoder) } }
        guard JxlDecoderSubscribeEvents(decoder, Int32(bitPattern: events)) == JXL_DEC_SUCCESS,
            JxlDecoderSetUnpremultiplyAlpha(decoder, 1) == JXL_DEC_SUCCESS,
            JxlDecoderSetInput(decoder, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count) == JXL_DEC_SUCCESS
        else { throw ImageError(.badImageData, "libjxl refused the decoder settings") }
        if isComplete { JxlDecoderCloseInput(decoder) }
        while true {
            let status = JxlDecoderProcessInput(decoder)
            switch status {
            case JXL_DEC_SUCCESS:
                return
            case JXL_DEC_ERROR:
                throw ImageError(.badImageData, "libjxl could not decode the JPEG XL stream")
            case JXL_DEC_NEED_MORE_INPUT where isComplete:
                throw ImageError(.badImageData, "the JPEG XL stream is truncated")
            default:
                guard try handle(status, decoder) else { return }
            }
        }
    }

    private func basicHeader(_ decoder: OpaquePointer) throws(ImageError) -> Header {
        var info = JxlBasicInfo()
        guard JxlDecoderGetBasicInfo(decoder, &info) == JXL_DEC_SUCCESS else {
            throw ImageError(.badImageData, "libjxl could not read the JPEG XL header")
        }
        let stored = PixelSize(width: Int(info.xsize), height: Int(info.ysize))
        let swaps = ImageOrientation(exifValue: Int(info.orientation.rawValue)).swapsWidthAndHeight
        return Header(
            size: swaps ? stored.transposed : stored,
            hasAlpha: info.alpha_bits > 0,
            pixelFormat: info.bits_per_sample > 8 ? .rgba16 : .rgba8,
            loopCount: info.have_animation != 0 ? Int(info.animation.num_loops) : 0,
            frameDurations: []
        )
    }

    private func frameDuration(_ decoder: OpaquePointer) throws(ImageError) -> Double {
        var frame = JxlFrameHeader()
        guard JxlDecoderGetFrameHeader(decoder, &frame) == JXL_DEC_SUCCESS else {
            throw ImageError(.badImageData, "libjxl could not read a frame header")
        }
        var info = JxlBasicInfo()
        guard JxlDecoderGetBasicInfo(decoder, &info) == JXL_DEC_SUCCESS, info.have_animation != 0, info.animation.tps_numerator > 0 else { return 0 }
        return Double(frame.duration) * Double(info.animation.tps_denominator) / Double(info.animation.tps_numerator)
    }

    private func allocateOutput(_ decoder: OpaquePointer, header: Header) throws(ImageError) -> UnsafeMutableRawBufferPointer {
        var format = JXLReader.pixelFormat(header.pixelFormat)
        var size = 0
        let expected = header.size.width * header.size.height * header.pixelFormat.bytesPerPixel
        guard JxlDecoderImageOutBufferSize(decoder, &format, &size) == JXL_DEC_SUCCESS, size == expected else {
            throw ImageError(.badImageData, "libjxl asks for an output buffer of \(size) bytes, not \(expected)")
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        buffer.initializeMemory(as: UInt8.self, repeating: 0)
        return buffer
    }

    /// RGBA in the host's byte order, 8 or 16 bits per sample, rows packed.
    private static func pixelFormat(_ format: PixelFormat) -> JxlPixelFormat {
        JxlPixelFormat(num_channels: 4, data_type: format == .rgba16 ? JXL_TYPE_UINT16 : JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
    }

    private static func bitmap(_ output: UnsafeMutableRawBufferPointer, header: Header) -> Bitmap {
        Bitmap(width: header.size.width, height: header.size.height, pixelFormat: header.pixelFormat, pixels: [UInt8](output))
    }
}
#endif
