import WebImageCore

/// Composes the frames of one APNG one at a time, for an ``AnimatedImage``: each frame's
/// data is decoded by libspng as a standalone PNG and drawn by an ``APNGCompositor``.
///
/// A key frame covers the whole canvas, replaces it (blend "source") and is not disposed
/// of by restoring the canvas before it, so neither it nor any later frame depends on
/// earlier ones. Going back starts from the latest key frame at or before the frame asked
/// for, else from frame 0.
final class APNGFrameDecoder: AnimatedFrameDecoder {
    private let bytes: PinnedBytes
    private let animation: APNGAnimation
    private let pixelFormat: PixelFormat
    private let keyFrames: [Int]
    private var compositor: APNGCompositor
    private(set) var nextFrameIndex = 0

    /// Reads the animation's chunks in `bytes`; `nil` for a still PNG.
    init?(bytes: PinnedBytes) throws(ImageError) {
        guard let animation = try APNGAnimation(parsing: bytes.bytes) else { return nil }
        let bitDepth = bytes.bytes[animation.header.data.lowerBound + 8]
        self.bytes = bytes
        self.animation = animation
        pixelFormat = bitDepth == 16 ? .rgba16 : .rgba8
        compositor = try APNGCompositor(size: animation.canvasSize, pixelFormat: pixelFormat)
        let canvas = animation.canvasSize
        keyFrames = animation.frames.indices.filter { index in
            let control = animation.frames[index].control
            return index == 0
                || (control.x == 0 && control.y == 0 && control.width == canvas.width
                    && control.height == canvas.height && control.blending == .source && control.disposal != .previous)
        }
    }

    func decodeNextFrame() throws(ImageError) -> Bitmap {
        let index = nextFrameIndex
        guard index < animation.frames.count else {
            restart(at: 0)
            throw ImageError(.badImageData, "the APNG has no frame \(index)")
        }
        do throws(ImageError) {
            let png = try animation.standalonePNG(forFrame: index, in: bytes.bytes)
            let decoded = try png.withImageBytes { stream throws(ImageError) in
                try PNGCoder.decodeStill(stream, options: ImageDecodeOptions())
            }
            guard decoded.bitmap.pixelFormat == pixelFormat else {
                throw ImageError(.badImageData, "APNG frame \(index) does not match the canvas bit depth")
            }
            nextFrameIndex += 1
            return compositor.draw(decoded.bitmap, as: animation.frames[index].control)
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

    /// Starts again at key frame `key` on a transparent canvas. When a fresh canvas cannot
    /// be had, nothing changes: the decoder stays where it was,
    /// as the GIF decoder does when it cannot reopen its file.
    private func restart(at key: Int) {
        guard let fresh = try? APNGCompositor(size: animation.canvasSize, pixelFormat: pixelFormat) else { return }
        compositor = fresh
        nextFrameIndex = key
    }
}
