import CWebP
import WebImageCore

extension WebPCoder {
    /// Decodes an animation with libwebp's animation decoder, which composes each frame
    /// onto the canvas.
    func decodeAnimation(
        _ bytes: UnsafeRawBufferPointer,
        features: WebPBitstreamFeatures,
        options: ImageDecodeOptions
    ) throws(ImageError) -> Image {
        let canvas = PixelSize(width: Int(features.width), height: Int(features.height))
        // The decoder keeps the current and the previous canvas.
        try options.checkAllocation(canvas, frameCount: 2)
        var animationOptions = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInitInternal(&animationOptions, WEBP_DEMUX_ABI_VERSION) != 0 else {
            throw ImageError(.badImageData, "libwebp refused its animation decoder options")
        }
        animationOptions.color_mode = MODE_RGBA
        var webPData = WebPData(bytes: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        guard let decoder = WebPAnimDecoderNewInternal(&webPData, &animationOptions, WEBP_DEMUX_ABI_VERSION) else {
            throw ImageError(.badImageData, "WebP animation is invalid: the demuxer rejected it")
        }
        defer { WebPAnimDecoderDelete(decoder) }
        var info = WebPAnimInfo()
        guard WebPAnimDecoderGetInfo(decoder, &info) != 0, info.frame_count > 0 else {
            throw ImageError(.badImageData, "WebP animation is invalid: it has no frames")
        }
        let frameCount = options.firstFrameOnly ? 1 : Int(info.frame_count)
        try options.checkAnimationWork(canvas: canvas, frameCount: frameCount)
        let target = options.targetSize(forSource: canvas, frameCount: frameCount)
        try options.checkAllocation(target, frameCount: frameCount)

        let byteCount = canvas.width * canvas.height * 4
        var frames: [ImageFrame] = []
        frames.reserveCapacity(frameCount)
        var previousTimestamp: Int32 = 0
        while frames.count < frameCount, WebPAnimDecoderHasMoreFrames(decoder) != 0 {
            var buffer: UnsafeMutablePointer<UInt8>?
            var timestamp: Int32 = 0
            guard WebPAnimDecoderGetNext(decoder, &buffer, &timestamp) != 0, let buffer else {
                if frames.isEmpty { throw ImageError(.badImageData, "WebP animation is invalid: a frame failed to decode") }
                break
            }
            let pixels = try [UInt8](unsafeUninitializedImageSized: byteCount) { output, initialized in
                output.baseAddress!.initialize(from: buffer, count: byteCount)
                initialized = byteCount
            }
            let bitmap = Bitmap(width: canvas.width, height: canvas.height, pixels: pixels)
            let duration = WebPCoder.frameDuration(milliseconds: timestamp - previousTimestamp)
            try frames.append(ImageFrame(bitmap: bitmap.resized(to: target), duration: duration))
            previousTimestamp = timestamp
        }
        // The animation encoder flags every canvas as having alpha, so only the pixels can tell.
        return Image(
            frames: frames, loopCount: Int(info.loop_count), scale: options.scaleFactor ?? 1,
            format: .webp, hasAlpha: features.has_alpha != 0 ? nil : false
        )
    }

    /// Reads the container with libwebp's demuxer: canvas, loop count and durations.
    func readAnimationInfo(_ bytes: UnsafeRawBufferPointer) throws(ImageError) -> AnimationInfo {
        var webPData = WebPData(bytes: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        guard let demuxer = WebPDemuxInternal(&webPData, 0, nil, WEBP_DEMUX_ABI_VERSION) else {
            throw ImageError(.badImageData, "WebP data is invalid: the demuxer rejected it")
        }
        defer { WebPDemuxDelete(demuxer) }
        let canvas = PixelSize(
            width: Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_WIDTH)),
            height: Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_HEIGHT))
        )
        let isAnimated = WebPDemuxGetI(demuxer, WEBP_FF_FORMAT_FLAGS) & ANIMATION_FLAG.rawValue != 0
        var durations: [Double] = []
        var iterator = WebPIterator()
        if WebPDemuxGetFrame(demuxer, 1, &iterator) != 0 {
            repeat {
                durations.append(isAnimated ? WebPCoder.frameDuration(milliseconds: iterator.duration) : 0)
            } while WebPDemuxNextFrame(&iterator) != 0
            WebPDemuxReleaseIterator(&iterator)
        }
        guard !durations.isEmpty else { throw ImageError(.badImageData, "WebP data is invalid: it has no frames") }
        let loopCount = Int(WebPDemuxGetI(demuxer, WEBP_FF_LOOP_COUNT))
        return AnimationInfo(canvasSize: canvas, loopCount: loopCount, frameDurations: durations)
    }

    /// Seconds a frame shows: 10 ms or less counts as 100 ms, as browsers (and GIF) do.
    static func frameDuration(milliseconds: Int32) -> Double {
        milliseconds <= 10 ? 0.1 : Double(milliseconds) / 1000
    }
}
