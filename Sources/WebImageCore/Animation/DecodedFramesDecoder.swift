/// A frame "decoder" over frames already decoded: every frame is a key frame.
final class DecodedFramesDecoder: AnimatedFrameDecoder {
    private let frames: [Bitmap]
    private(set) var nextFrameIndex = 0

    init(frames: [Bitmap]) {
        self.frames = frames
    }

    func decodeNextFrame() throws(ImageError) -> Bitmap {
        defer { nextFrameIndex = (nextFrameIndex + 1) % frames.count }
        return frames[nextFrameIndex]
    }

    func rewind(toKeyFrameAtOrBefore index: Int) {
        nextFrameIndex = index
    }
}
