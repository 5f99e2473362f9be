import Foundation
import WebImage

/// The time an AVIF encode is planned to take, checked against what is left of the
/// request's deadline before it starts: libaom encodes a frame in one call that nothing can
/// interrupt, so an encode that cannot end in time is refused (504, as the deadline
/// answers) instead of left running long after its request was answered.
///
/// The plan is libaom's measured CPU time per pixel (``lossySecondsPerPixel``, or
/// ``losslessSecondsPerPixel``) times the pixels of every frame. An encode is tried while
/// its plan is at most ``margin`` times the time left, since a machine faster than the one
/// measured may still end it in time; so an encode admitted outlasts its deadline by at
/// most about its plan. Animated encodes of every format also stop between frames once
/// their request is over; the still encodes of the other formats are not planned.
///
/// Room Processing/: a result made from a source — the source's header, the transform's budget, the output format chosen, the decode, transform and encode.
/// Its settings: <doc:Configuration>; running it: <doc:OperatorGuide>.
enum AVIFEncodePlan {
    /// libaom's CPU seconds per pixel through libavif 0.11 at `AVIFCoder.defaultEncodingSpeed`
    /// (8) on one thread, lossy 4:2:0 at 8 or 10 bits, rounded up from the figures in the
    /// Security article.
    static let lossySecondsPerPixel = 0.45e-6
    /// The same for a lossless encode (4:4:4, quantizer 0), which costs more.
    static let losslessSecondsPerPixel = 0.65e-6
    /// How many times the time left an encode's plan may be and still be tried.
    static let margin = 2.0

    /// The seconds writing `frames` frames of `size` as AVIF is planned to take.
    static func seconds(for size: PixelSize, frames: Int, lossless: Bool) -> Double {
        let pixels = Double(size.width) * Double(size.height) * Double(max(frames, 1))
        return pixels * (lossless ? losslessSecondsPerPixel : lossySecondsPerPixel)
    }

    /// Whether the encode of `frames` frames of `size` fits the time left before the
    /// deadline of the work running in this task (any does outside one).
    static func fits(_ size: PixelSize, frames: Int, lossless: Bool) -> Bool {
        guard let remaining = RequestDeadline.remaining else { return true }
        let left = Double(remaining.components.seconds) + Double(remaining.components.attoseconds) * 1e-18
        return seconds(for: size, frames: frames, lossless: lossless) <= margin * max(0, left)
    }

    /// Checks that the encode of `frames` frames of `size` fits the time left.
    ///
    /// - Throws: ``ImageServerError`` 504 (one a fallback image may answer for, as for the
    ///   deadline itself) when it does not.
    static func check(_ size: PixelSize, frames: Int, lossless: Bool) throws(ImageServerError) {
        guard !fits(size, frames: frames, lossless: lossless) else { return }
        let planned = seconds(for: size, frames: frames, lossless: lossless)
        var error = ImageServerError(
            .gatewayTimeout, "the AVIF encode would outlast the request's deadline",
            detail: "\(size.width)x\(size.height), \(max(frames, 1)) frames planned at \(Int(planned.rounded(.up))) s of libaom")
        error.allowsFallback = true
        throw error
    }
}
