#if AVIF
// Compiled only with the `AVIF` package trait, so that a build without it never imports
// CAVIF and needs no libavif headers.
import CAVIF
import WebImageCore

/// Decodes the frames of an AVIF image sequence one at a time for an `AnimatedImage`.
///
/// libavif seeks by itself (`avifDecoderNthImage` goes back to the nearest key frame), so
/// rewinding only moves the index and every frame costs at most the frames since its key
/// frame.
final class AVIFFrameDecoder: AnimatedFrameDecoder {
    /// The file, kept alive for the session's pointers into it.
    private let bytes: PinnedBytes
    private let session: AVIFDecoderSession
    private let options: ImageDecodeOptions
    private(set) var nextFrameIndex = 0

    /// A decoder over `bytes`, parsed with `options`' limits.
    init(bytes: PinnedBytes, session: AVIFDecoderSession, options: ImageDecodeOptions) {
        self.bytes = bytes
        self.session = session
        self.options = options
    }

    func decodeNextFrame() throws(ImageError) -> Bitmap {
        do throws(ImageError) {
            let bitmap = try session.decodeFrame(at: nextFrameIndex, options: options)
            nextFrameIndex = (nextFrameIndex + 1) % session.frameCount
            return bitmap.size == session.canvasSize ? bitmap : bitmap.resized(to: session.canvasSize)
        } catch {
            nextFrameIndex = 0
            throw error
        }
    }

    func rewind(toKeyFrameAtOrBefore index: Int) {
        nextFrameIndex = index
    }
}
#endif
