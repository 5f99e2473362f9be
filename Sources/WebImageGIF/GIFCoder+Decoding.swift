import WebImageCore
extension GIFCoder {
    /// Decodes the GIF in `bytes`, composing each frame onto the canvas.
    func decodeImage(_ bytes: UnsafeRawBufferPointer, options: ImageDecodeOptions) throws(ImageError) -> Image {
        let reader = try GIFReader(bytes: bytes)
        let canvasSize = reader.screenSize
        try options.checkAllocation(canvasSize)
        // A pass that skips the pixels counts the frames, refusing too many before any is
        // composed: every frame costs the whole canvas, whatever its own size.
        let frameCount = options.firstFrameOnly ? 1 : try countFrames(bytes, canvas: canvasSize, options: options)
        let outputSize = options.targetSize(forSource: canvasSize, frameCount: frameCount)

        var canvas = try GIFCanvas(size: canvasSize)
        // A thumbnail is kept up to date where frames change, not resized whole per frame.
        var thumbnail = outputSize != canvasSize ? try IncrementalResizer(source: canvasSize, destination: outputSize) : nil
        // The area the last frame's disposal changed, which the next output must redo.
        var disposed: (columns: Range<Int>, rows: Range<Int>)?
        var frames: [ImageFrame] = []
        var loopCount: Int?
        var control = GIFGraphicControl()
        reading: while true {
            let record: GIFReader.Record
            do {
                record = try reader.nextRecord()
            } catch {
                if frames.isEmpty { throw error }
                break reading
            }
            switch record {
            case .graphicControl(let newControl):
                control = newControl
            case .loopCount(let count):
                loopCount = loopCount ?? count
            case .end:
                break reading
            case .frame(let frame):
                try checkFrame(frame, outputSize: outputSize, framesSoFar: frames.count, options: options)
                try options.checkAnimationWork(canvas: canvasSize, frameCount: frames.count + 1)
                var rowsDrawn = 0
                var isTruncated = false
                do {
                    try canvas.draw(frame, control: control, from: reader, rowsDrawn: &rowsDrawn)
                } catch {
                    guard rowsDrawn > 0 || !frames.isEmpty else { throw error }
                    isTruncated = true
                }
                if rowsDrawn > 0 || !isTruncated {
                    let bitmap: Bitmap
                    if thumbnail != nil {
                        let area = Self.covering(frame.area, disposed)
                        thumbnail!.update(from: canvas.pixels, changedColumns: area.columns, changedRows: area.rows)
                        bitmap = thumbnail!.bitmap
                    } else {
                        bitmap = Bitmap(width: canvas.width, height: canvas.height, pixels: canvas.pixels)
                    }
                    frames.append(ImageFrame(bitmap: bitmap, duration: control.duration))
                }
                if isTruncated || options.firstFrameOnly { break reading }
                canvas.dispose(frame, control: control)
                disposed = control.disposal == .keep ? nil : frame.area
                control = GIFGraphicControl()
            }
        }
        guard !frames.isEmpty else { throw ImageError(.badImageData, "the GIF contains no image") }
        if frames.count == 1 { frames[0].duration = 0 }
        return Image(frames: frames, loopCount: loopCount ?? 1, scale: options.scaleFactor ?? 1, format: .gif)
    }

    /// Walks the records, skipping pixel data, to collect the frame delays and loop count.
    func readAnimationInfo(_ bytes: UnsafeRawBufferPointer) throws(ImageError) -> AnimationInfo {
        var info = try walkFrames(bytes).info
        if info.frameCount == 1 { info.frameDurations[0] = 0 }
        return info
    }

    /// Walks the records without decoding pixels: the structure of the frames whose image
    /// data has wholly arrived (its block terminator read), and whether the walk reached
    /// the trailer. A file that breaks off, or turns corrupt, after a frame counts the
    /// frames before the break.
    ///
    /// - Throws: ``ImageError/Code/badImageData`` when no frame is complete.
    func walkFrames(_ bytes: UnsafeRawBufferPointer) throws(ImageError) -> (info: AnimationInfo, reachedTrailer: Bool) {
        let reader = try GIFReader(bytes: bytes)
        var durations: [Double] = []
        var loopCount: Int?
        var control = GIFGraphicControl()
        var reachedTrailer = false
        reading: while true {
            do {
                switch try reader.nextRecord() {
                case .graphicControl(let newControl):
                    control = newControl
                case .loopCount(let count):
                    loopCount = loopCount ?? count
                case .end:
                    reachedTrailer = true
                    break reading
                case .frame:
                    try reader.skipPixels()
                    durations.append(control.duration)
                    control = GIFGraphicControl()
                }
            } catch {
                if durations.isEmpty { throw error }
                break reading
            }
        }
        guard !durations.isEmpty else { throw ImageError(.badImageData, "the GIF contains no image") }
        return (AnimationInfo(canvasSize: reader.screenSize, loopCount: loopCount ?? 1, frameDurations: durations), reachedTrailer)
    }

    /// Counts the frames, skipping their pixels, and refuses the animation as soon as the
    /// count passes ``ImageDecodeOptions/maxFrameCount`` or its work
    /// ``ImageDecodeOptions/maxAnimationWork``. A file that breaks off counts the frames
    /// before the break.
    private func countFrames(_ bytes: UnsafeRawBufferPointer, canvas: PixelSize, options: ImageDecodeOptions) throws(ImageError) -> Int {
        let reader = try GIFReader(bytes: bytes)
        var count = 0
        while true {
            let record: GIFReader.Record
            do {
                record = try reader.nextRecord()
                if case .frame = record { try reader.skipPixels() }
            } catch {
                return max(count, 1)
            }
            switch record {
            case .frame:
                count += 1
                try options.checkAnimationWork(canvas: canvas, frameCount: count)
            case .end:
                return max(count, 1)
            case .graphicControl, .loopCount:
                continue
            }
        }
    }

    /// The smallest rectangle covering `area` and `other`.
    private static func covering(
        _ area: (columns: Range<Int>, rows: Range<Int>),
        _ other: (columns: Range<Int>, rows: Range<Int>)?
    ) -> (columns: Range<Int>, rows: Range<Int>) {
        guard let other else { return area }
        func spanning(_ a: Range<Int>, _ b: Range<Int>) -> Range<Int> {
            if a.isEmpty { return b }
            if b.isEmpty { return a }
            return min(a.lowerBound, b.lowerBound)..<max(a.upperBound, b.upperBound)
        }
        return (spanning(area.columns, other.columns), spanning(area.rows, other.rows))
    }

    /// Refuses a frame whose pixel data, or whose place among the output frames, would
    /// pass the limits.
    private func checkFrame(
        _ frame: GIFFrameDescriptor,
        outputSize: PixelSize,
        framesSoFar: Int,
        options: ImageDecodeOptions
    ) throws(ImageError) {
        if frame.width > 0, frame.height > 0 {
            try options.checkAllocation(PixelSize(width: frame.width, height: frame.height), bytesPerPixel: 1)
        }
        try options.checkAllocation(outputSize, frameCount: framesSoFar + 1)
    }
}
