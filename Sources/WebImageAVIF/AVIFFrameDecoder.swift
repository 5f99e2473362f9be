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
    /// The parsed file; it keeps the file's bytes alive for as long as libavif reads them.
    private let session: AVIFDecoderSession
    private let options: ImageDecodeOptions
    private(set) var nextFrameIndex = 0

    /// A decoder over `session`'s file, which owns its bytes, decoding with `options`' limits.
    init(session: AVIFDecoderSession, options: ImageDecodeOptions) {
        self.session = session
        self.options = options
    }

    func decodeNextFrame() throws(ImageError) -> Bitmap {
        do throws(ImageError) {
            let bitmap = try session.decodeFrame(at: nextFrameIndex, options: options)
            nextFrameIndex = (nextFrameIndex + 1) % session.frameCount
            return try bitmap.size == session.canvasSize ? bitmap : bitmap.resized(to: session.canvasSize)
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
