import WebImageCore

/// Composes the frames of one GIF one at a time, for an ``AnimatedImage``: giflib's
/// reader walks the file once, and the canvas carries each frame's disposal to the next.
///
/// A key frame is one that covers the whole canvas with no transparent index and does not
/// restore the canvas after itself: in a valid file (every index within its colour map) what it shows, and everything after it, do not depend
/// on earlier frames. Going back starts from the latest key frame at or before the frame
/// asked for, walking the file to it without decoding pixels; without key frames it
/// starts from frame 0.
final class GIFFrameDecoder: AnimatedFrameDecoder {
    private let bytes: PinnedBytes
    private let keyFrames: [Int]
    private var reader: GIFReader
    private var canvas: GIFCanvas
    private var control = GIFGraphicControl()
    private(set) var nextFrameIndex = 0

    /// Opens the GIF in `bytes` and finds its key frames.
    init(bytes: PinnedBytes) throws(ImageError) {
        self.bytes = bytes
        reader = try GIFReader(bytes: bytes.bytes)
        canvas = try GIFCanvas(size: reader.screenSize)
        keyFrames = GIFFrameDecoder.keyFrames(in: bytes.bytes)
    }

    func decodeNextFrame() throws(ImageError) -> Bitmap {
        do throws(ImageError) {
            while true {
                switch try reader.nextRecord() {
                case .graphicControl(let newControl):
                    control = newControl
                case .loopCount:
                    continue
                case .end:
                    throw ImageError(.badImageData, "the GIF has no frame \(nextFrameIndex)")
                case .frame(let frame):
                    var rowsDrawn = 0
                    try canvas.draw(frame, control: control, from: reader, rowsDrawn: &rowsDrawn)
                    let bitmap = Bitmap(width: canvas.width, height: canvas.height, pixels: canvas.pixels)
                    canvas.dispose(frame, control: control)
                    control = GIFGraphicControl()
                    nextFrameIndex += 1
                    return bitmap
                }
            }
        } catch {
            restart(at: 0)
            throw error
        }
    }

    func rewind(toKeyFrameAtOrBefore index: Int) {
        let key = keyFrames.last { $0 <= index } ?? 0
        if nextFrameIndex <= index, nextFrameIndex >= key { return }
        restart(at: key)
    }

    /// Reopens the file and walks to the records of frame `key` without decoding pixels;
    /// the canvas starts transparent, which a key frame overwrites whole.
    private func restart(at key: Int) {
        guard let fresh = try? GIFReader(bytes: bytes.bytes), let blank = try? GIFCanvas(size: fresh.screenSize) else { return }
        reader = fresh
        canvas = blank
        control = GIFGraphicControl()
        nextFrameIndex = 0
        while nextFrameIndex < key {
            guard let record = try? reader.nextRecord() else { return restart(at: 0) }
            guard case .frame = record else { continue }
            guard (try? reader.skipPixels()) != nil else { return restart(at: 0) }
            nextFrameIndex += 1
        }
    }

    /// The indices of the key frames, found by walking the records without decoding pixels
    /// (frame 0 is always one).
    private static func keyFrames(in bytes: UnsafeRawBufferPointer) -> [Int] {
        guard let reader = try? GIFReader(bytes: bytes) else { return [0] }
        let canvas = reader.screenSize
        var keys = [0]
        var index = 0
        var control = GIFGraphicControl()
        while let record = try? reader.nextRecord() {
            switch record {
            case .graphicControl(let newControl):
                control = newControl
            case .loopCount:
                continue
            case .end:
                return keys
            case .frame(let frame):
                let coversCanvas =
                    frame.left <= 0 && frame.top <= 0
                    && frame.left + frame.width >= canvas.width && frame.top + frame.height >= canvas.height
                if index > 0, coversCanvas, control.transparentIndex == nil, control.disposal != .previous {
                    keys.append(index)
                }
                guard (try? reader.skipPixels()) != nil else { return keys }
                index += 1
                control = GIFGraphicControl()
            }
        }
        return keys
    }
}
