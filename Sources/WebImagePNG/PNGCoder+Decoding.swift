import Foundation
import CPNG
import WebImageCore

extension PNGCoder {
    /// Decodes the PNG or APNG in `stream` as `options` ask.
    static func decodeImage(_ stream: UnsafeRawBufferPointer, options: ImageDecodeOptions) throws(ImageError) -> Image {
        if let animation = try? APNGAnimation(parsing: stream) {
            do {
                return try decodeAnimation(animation, in: stream, options: options)
            } catch {
                guard error.code == .badImageData else { throw error }
            }
        }
        if let thumbnail = try decodeStreamedThumbnail(stream, options: options) { return thumbnail }
        let still = try decodeStill(stream, options: options)
        let target = options.targetSize(forSource: still.bitmap.size, bytesPerPixel: still.bitmap.pixelFormat.bytesPerPixel)
        return try Image(
            bitmap: still.bitmap.resized(to: target),
            scale: options.scaleFactor ?? 1,
            format: .png,
            hasAlpha: still.hasAlpha,
            colorProfile: still.colorProfile
        )
    }

    /// Decodes the still image (the default image of an APNG) in `stream` at full size:
    /// with ``PNGInflatedImage`` unless `libspngOnly`, and with libspng where that declines
    /// the data (interlaced pictures, damage, anything unusual).
    ///
    /// The pixel memory is checked against `options` before it is allocated. The ICC
    /// profile of an `iCCP` chunk comes inflated, as libspng reads it.
    static func decodeStill(
        _ stream: UnsafeRawBufferPointer,
        options: ImageDecodeOptions,
        libspngOnly: Bool = false
    ) throws(ImageError) -> (bitmap: Bitmap, hasAlpha: Bool, colorProfile: ColorProfile?) {
        let context = try SPNGContext.decoder(for: stream, options: options)
        let header = try context.header()
        let layout = PNGOutputLayout(header)
        let size = PixelSize(width: Int(header.width), height: Int(header.height))
        try options.checkAllocation(size, bytesPerPixel: layout.pixelFormat.bytesPerPixel)
        let byteCount = try layout.byteCount(in: context, size: size)
        let transparencyChunk = try context.hasTransparencyChunk()
        let hasAlpha = transparencyChunk || layout.hasAlphaChannel
        guard !libspngOnly else { return try decodeStillWithLibspng(context, layout: layout, size: size, hasAlpha: hasAlpha) }
        // The image data is inflated into the end of the picture's own buffer, which the
        // rows then overwrite: one picture-sized buffer, not two.
        let rowBytes = size.width * layout.pixelFormat.bytesPerPixel
        let room = PNGInflatedImage.roomToInflateInPlace(height: size.height, decodedRowBytes: rowBytes)
        var decoded: Bool?
        let pixels = try [UInt8](unsafeUninitializedImageSized: byteCount + room) { buffer, count in
            let whole = UnsafeMutableRawBufferPointer(buffer)
            guard let image = PNGInflatedImage(stream: stream, header: header, context: context, options: options, inflatingInto: whole)
            else { return }
            decoded = image.decodeRows(into: { whole.baseAddress! + $0 * rowBytes }, { _ in })
            count = decoded == true ? byteCount : 0
        }
        switch decoded {
        case true?: break
        case false?:
            return try decodeStillWithLibspng(SPNGContext.decoder(for: stream, options: options), layout: layout, size: size, hasAlpha: hasAlpha)
        case nil:
            return try decodeStillWithLibspng(context, layout: layout, size: size, hasAlpha: hasAlpha)
        }
        let bitmap = Bitmap(width: size.width, height: size.height, pixelFormat: layout.pixelFormat, pixels: pixels)
        return (bitmap, hasAlpha, context.colorProfile())
    }

    /// ``decodeStill(_:options:)``'s decode by libspng, on a context that has read no more
    /// than the chunks before the image data.
    private static func decodeStillWithLibspng(
        _ context: SPNGContext,
        layout: PNGOutputLayout,
        size: PixelSize,
        hasAlpha: Bool
    ) throws(ImageError) -> (bitmap: Bitmap, hasAlpha: Bool, colorProfile: ColorProfile?) {
        let byteCount = try layout.byteCount(in: context, size: size)
        var status: Int32 = 0
        let pixels = try [UInt8](unsafeUninitializedImageSized: byteCount) { buffer, count in
            status = spng_decode_image(context.handle, buffer.baseAddress, byteCount, layout.format, layout.flags)
            count = byteCount
        }
        try context.check(status, "decode the image")
        try context.checkTrailingChunks()
        let bitmap = Bitmap(width: size.width, height: size.height, pixelFormat: layout.pixelFormat, pixels: pixels)
        return (bitmap, hasAlpha, context.colorProfile())
    }

    /// Decodes a still PNG row by row into a ``RowStreamingResizer`` when `options` ask for a
    /// smaller picture, so that only a few source rows are held, never the whole decoded
    /// source; `nil` where the whole picture is decoded first instead: for an interlaced
    /// PNG (its passes cover the picture several times), a target that is not smaller, and
    /// shapes ``Bitmap/resized(to:)`` resamples rows first.
    ///
    /// The pixels, errors, alpha flag and colour profile are those of ``decodeStill(_:options:)``
    /// followed by ``Bitmap/resized(to:)``.
    static func decodeStreamedThumbnail(_ stream: UnsafeRawBufferPointer, options: ImageDecodeOptions) throws(ImageError) -> Image? {
        try decodeStreamedThumbnail(from: .memory(stream), options: options)
    }

    /// ``decodeStreamedThumbnail(_:options:)`` from bytes in memory or a file. Unless
    /// `libspngOnly`, bytes in memory are decoded by ``PNGInflatedImage`` (which holds the
    /// inflated image data, about the size of the decoded picture, besides the resampler's
    /// rows) and an 8-bit RGB or RGBA file by ``PNGTruecolorRows``; libspng decodes from the
    /// start what they decline.
    static func decodeStreamedThumbnail(
        from source: PNGByteSource,
        options: ImageDecodeOptions,
        libspngOnly: Bool = false
    ) throws(ImageError) -> Image? {
        let context = try source.decoder(options: options)
        let header = try context.header()
        guard header.interlace_method == 0 else { return nil }
        let layout = PNGOutputLayout(header)
        let size = PixelSize(width: Int(header.width), height: Int(header.height))
        try options.checkAllocation(size, bytesPerPixel: layout.pixelFormat.bytesPerPixel)
        let target = options.targetSize(forSource: size, bytesPerPixel: layout.pixelFormat.bytesPerPixel)
        guard target != size, target.width <= size.width, target.height <= size.height,
            !Bitmap.resamplesRowsFirst(from: size, to: target)
        else { return nil }
        _ = try layout.byteCount(in: context, size: size)
        let transparencyChunk = try context.hasTransparencyChunk()
        let hasAlpha = transparencyChunk || layout.hasAlphaChannel
        let resizer = try RowStreamingResizer(
            source: size, destination: target, pixelFormat: layout.pixelFormat, mayBeTransparent: hasAlpha)
        let decoded: Bool? =
            switch source {
            case _ where libspngOnly: nil
            case let .memory(stream):
                PNGInflatedImage(stream: stream, header: header, context: context, options: options).map { image in
                    let rowBytes = size.width * layout.pixelFormat.bytesPerPixel
                    let rows = UnsafeMutableRawPointer.allocate(byteCount: 2 * rowBytes, alignment: 16)
                    defer { rows.deallocate() }
                    return image.decodeRows(into: { rows + ($0 & 1) * rowBytes }, { resizer.append(row: $0) })
                }
            case let .file(file):
                PNGTruecolorRows.canDecode(header, hasTransparencyChunk: transparencyChunk)
                    ? PNGTruecolorRows.forEachRow(reading: file, header: header, options: options) { resizer.append(row: $0) } : nil
            }
        switch decoded {
        case true?: break
        case false?: return try decodeStreamedThumbnail(from: source, options: options, libspngOnly: true)
        case nil: try appendLibspngRows(from: context, layout: layout, size: size, to: resizer)
        }
        return Image(
            bitmap: try resizer.finish(),
            scale: options.scaleFactor ?? 1,
            format: .png,
            hasAlpha: hasAlpha,
            colorProfile: context.colorProfile()
        )
    }

    /// Decodes the rows of the picture `context` reads into `resizer` with libspng's
    /// progressive decoder, then reads the chunks after the image data.
    private static func appendLibspngRows(
        from context: SPNGContext,
        layout: PNGOutputLayout,
        size: PixelSize,
        to resizer: RowStreamingResizer
    ) throws(ImageError) {
        let progressive = layout.flags | Int32(SPNG_DECODE_PROGRESSIVE.rawValue)
        try context.check(spng_decode_image(context.handle, nil, 0, layout.format, progressive), "decode the image")
        let rowBytes = size.width * layout.pixelFormat.bytesPerPixel
        let row = UnsafeMutableRawPointer.allocate(byteCount: rowBytes, alignment: 16)
        defer { row.deallocate() }
        var status: Int32 = 0
        while status == 0 {
            status = spng_decode_row(context.handle, row, rowBytes)
            guard status == 0 || status == Int32(SPNG_EOI.rawValue) else { break }
            guard resizer.receivedRows < size.height else {
                throw ImageError(.badImageData, "libspng decoded more rows than the header declares")
            }
            resizer.append(row: row)
        }
        if status != Int32(SPNG_EOI.rawValue) { try context.check(status, "decode the image") }
        guard resizer.receivedRows == size.height else {
            throw ImageError(.badImageData, "libspng decoded \(resizer.receivedRows) of \(size.height) rows")
        }
        try context.checkTrailingChunks()
    }

    /// Decodes the frames of `animation` (only the first with `firstFrameOnly`), composes
    /// them onto the canvas and scales them to the options' target size.
    static func decodeAnimation(
        _ animation: APNGAnimation,
        in stream: UnsafeRawBufferPointer,
        options: ImageDecodeOptions
    ) throws(ImageError) -> Image {
        let frameCount = options.firstFrameOnly ? 1 : animation.frames.count
        let bitDepth = stream[animation.header.data.lowerBound + 8]
        let pixelFormat: PixelFormat = bitDepth == 16 ? .rgba16 : .rgba8
        let canvasSize = animation.canvasSize
        let target = options.targetSize(forSource: canvasSize, frameCount: frameCount, bytesPerPixel: pixelFormat.bytesPerPixel)
        try options.checkAllocation(canvasSize, bytesPerPixel: pixelFormat.bytesPerPixel)
        try options.checkAllocation(target, frameCount: frameCount, bytesPerPixel: pixelFormat.bytesPerPixel)
        try options.checkAnimationWork(canvas: canvasSize, frameCount: frameCount)
        var compositor = try APNGCompositor(size: canvasSize, pixelFormat: pixelFormat)
        var frames: [ImageFrame] = []
        frames.reserveCapacity(frameCount)
        for (index, frame) in animation.frames.prefix(frameCount).enumerated() {
            let png = try animation.standalonePNG(forFrame: index, in: stream)
            let decoded = try png.withImageBytes { frameStream throws(ImageError) in
                try decodeStill(frameStream, options: options)
            }
            guard decoded.bitmap.pixelFormat == pixelFormat else {
                throw ImageError(.badImageData, "APNG frame \(index) does not match the canvas bit depth")
            }
            let canvas = compositor.draw(decoded.bitmap, as: frame.control)
            try frames.append(ImageFrame(bitmap: canvas.resized(to: target), duration: frame.control.duration))
        }
        return Image(frames: frames, loopCount: animation.loopCount, scale: options.scaleFactor ?? 1, format: .png)
    }
}
