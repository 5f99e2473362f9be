import CGIF
import Foundation
import WebImageCore

extension GIFCoder {
    /// Writes `image` as a GIF89a.
    ///
    /// Every frame is written full-canvas with its own colour table. An animation gets a
    /// Graphics Control Extension per frame (delay in hundredths of a second, disposal
    /// "restore to background" when any frame has transparent pixels, so they never show
    /// the previous frame) and a NETSCAPE2.0 block unless its loop count is 1, which is
    /// what a GIF without the block means; a still image gets a control block only for
    /// transparency. The options' cancellation is read before each frame.
    func encodeImage(_ image: Image, options: ImageEncodeOptions) throws(ImageError) -> Data {
        let frames = options.firstFrameOnly ? [image.frames[0]] : image.frames
        let bitmaps = try frames.map { frame throws(ImageError) in try frame.bitmap.convertedToRGBA8() }
        let isAnimated = frames.count > 1
        let disposal: UInt8 = isAnimated && bitmaps.contains(where: GIFIndexedImage.hasTransparentPixels) ? 2 : 1
        let width = image.pixelWidth, height = image.pixelHeight
        guard width > 0, height > 0, width <= 0xFFFF, height <= 0xFFFF else {
            throw ImageError(.encodingFailed, "GIF cannot hold an image of \(image.pixelSize)")
        }
        let sink = GIFByteSink()
        var error: Int32 = 0
        guard let file = EGifOpen(Unmanaged.passUnretained(sink).toOpaque(), GIFByteSink.outputFunction, &error) else {
            throw encodingError(code: error)
        }
        var isOpen = true
        // giflib holds the sink unretained and writes to it until EGifCloseFile, also when
        // a failure closes the file early: the sink must live until then.
        defer { if isOpen { withExtendedLifetime(sink) { _ = EGifCloseFile(file, &error) } } }
        EGifSetGifVersion(file, true)
        try check(EGifPutScreenDesc(file, Int32(width), Int32(height), 8, 0, nil), file)
        if isAnimated, image.loopCount != 1 {
            try putLoopCount(min(image.loopCount, 0xFFFF), file)
        }
        for (index, (frame, bitmap)) in zip(frames, bitmaps).enumerated() {
            try options.cancellation?.check(before: "frame \(index) of the GIF")
            let indexed = try GIFIndexedImage(bitmap)
            if isAnimated || indexed.transparentIndex != nil {
                let delay = isAnimated ? min(max(Int((frame.duration * 100).rounded()), 0), 0xFFFF) : 0
                try putGraphicControl(delay: delay, disposal: disposal, transparentIndex: indexed.transparentIndex, file)
            }
            try putFrame(indexed, width: width, height: height, file)
        }
        isOpen = false
        guard EGifCloseFile(file, &error) == GIF_OK else { throw encodingError(code: error) }
        return Data(sink.bytes)
    }

    private func putLoopCount(_ loopCount: Int, _ file: UnsafeMutablePointer<GifFileType>) throws(ImageError) {
        let name = Array("NETSCAPE2.0".utf8)
        let loop: [UInt8] = [1, UInt8(loopCount & 0xFF), UInt8(loopCount >> 8)]
        try check(EGifPutExtensionLeader(file, APPLICATION_EXT_FUNC_CODE), file)
        try check(EGifPutExtensionBlock(file, Int32(name.count), name), file)
        try check(EGifPutExtensionBlock(file, Int32(loop.count), loop), file)
        try check(EGifPutExtensionTrailer(file), file)
    }

    private func putGraphicControl(
        delay: Int,
        disposal: UInt8,
        transparentIndex: Int?,
        _ file: UnsafeMutablePointer<GifFileType>
    ) throws(ImageError) {
        let packed = disposal << 2 | (transparentIndex == nil ? 0 : 1)
        let block: [UInt8] = [packed, UInt8(delay & 0xFF), UInt8(delay >> 8), UInt8(transparentIndex ?? 0)]
        try check(EGifPutExtension(file, GRAPHICS_EXT_FUNC_CODE, Int32(block.count), block), file)
    }

    private func putFrame(
        _ indexed: GIFIndexedImage,
        width: Int,
        height: Int,
        _ file: UnsafeMutablePointer<GifFileType>
    ) throws(ImageError) {
        let map = indexed.palette.withUnsafeBytes { palette in
            GifMakeMapObject(Int32(indexed.colorCount), palette.baseAddress?.assumingMemoryBound(to: GifColorType.self))
        }
        guard let map else { throw ImageError(.encodingFailed, "giflib could not make a colour map") }
        defer { GifFreeMapObject(map) }
        try check(EGifPutImageDesc(file, 0, 0, Int32(width), Int32(height), false, map), file)
        var indices = indexed.indices
        let status = indices.withUnsafeMutableBufferPointer { pixels in
            for row in 0..<height {
                let line = pixels.baseAddress! + row * width
                guard EGifPutLine(file, line, Int32(width)) == GIF_OK else { return GIF_ERROR }
            }
            return GIF_OK
        }
        try check(status, file)
    }

    private func check(_ status: Int32, _ file: UnsafeMutablePointer<GifFileType>) throws(ImageError) {
        guard status == GIF_OK else { throw encodingError(code: file.pointee.Error) }
    }

    private func encodingError(code: Int32) -> ImageError {
        let reason = GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
        return ImageError(.encodingFailed, "GIF encoding failed: \(reason)")
    }
}
