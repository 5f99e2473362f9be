import Foundation
import WebImageCore
import WebImageJPEG

extension TransformSpec {
    /// The JPEG in `data` turned or mirrored by this spec without re-encoding, when the
    /// spec is only quarter turns and flips and the output is JPEG; `nil` when the caller
    /// must decode, transform and encode as usual.
    ///
    /// The chain's turns and flips are combined into one of the eight orientations and
    /// applied to the DCT coefficients (`JPEGLosslessTransform`: libjpeg-turbo's
    /// `tjTransform`, or, for a picture of whole MCUs, the same transform made block by block
    /// as the encoder asks), so the result is the turned picture without a second round of
    /// compression loss (its decode can differ from the turned decode of the source by the
    /// rounding of libjpeg's inverse DCT and chroma upsampling, which are not symmetric in
    /// rows and columns), and keeps the source's compression (a `q=` in
    /// the spec does not apply). `nil` as well when the transform could not be exact: a
    /// partial MCU block on an edge the operation moves (a width or height that is not a
    /// multiple of 8 or 16 pixels), an EXIF or XMP orientation in the source, samples that
    /// are not 8-bit, or data libjpeg-turbo warns about, and for an Ultra HDR source whose
    /// gain map the spec keeps.
    ///
    /// - Throws: `ImageError.Code.imageTooLarge` past the limits of `decodeOptions`,
    ///   `ImageError.Code.badImageData` for a damaged header.
    public func losslessJPEG(
        from data: Data,
        writing output: ImageFormat,
        decodeOptions: ImageDecodeOptions = ImageDecodeOptions()
    ) throws(ImageError) -> Data? {
        guard output == .jpeg, ImageFormat(sniffing: data) == .jpeg, let orientation = losslessOrientation else {
            return nil
        }
        // The lossless turn keeps no marker: a gain map to keep needs the decode.
        if encodeOptions?.keepsGainMap ?? true, JPEGCoder.gainMap(describedIn: data) != nil { return nil }
        return try JPEGLosslessTransform.transform(data, to: orientation, options: decodeOptions)
    }

    /// Whether the chain is only flips and quarter turns (at least one), which
    /// ``losslessJPEG(from:writing:decodeOptions:)`` can apply to a JPEG without decoding it.
    public var isLosslessForJPEG: Bool { losslessOrientation != nil }

    /// The one orientation the whole chain amounts to, when it is made only of flips and
    /// quarter turns (at least one); `nil` otherwise.
    package var losslessOrientation: ImageOrientation? {
        guard !transformers.isEmpty else { return nil }
        // The chain so far as `turns` clockwise quarter turns after an optional mirror
        // left to right; a mirror after turns reverses them (M·R^a = R^-a·M).
        var turns = 0
        var mirrored = false
        for transformer in transformers {
            let step: (turns: Int, mirrored: Bool)
            if let rotation = transformer as? RotatingImageTransformer, let quarterTurns = rotation.quarterTurns {
                step = (quarterTurns, false)
            } else if let flip = transformer as? FlippingImageTransformer {
                switch (flip.horizontal, flip.vertical) {
                case (true, true): step = (2, false)
                case (true, false): step = (0, true)
                case (false, true): step = (2, true)
                case (false, false): step = (0, false)
                }
            } else {
                return nil
            }
            if step.mirrored {
                turns = (step.turns - turns + 4) % 4
                mirrored.toggle()
            } else {
                turns = (turns + step.turns) % 4
            }
        }
        switch (turns, mirrored) {
        case (0, false): return .up
        case (1, false): return .right
        case (2, false): return .down
        case (3, false): return .left
        case (0, true): return .upMirrored
        case (1, true): return .rightMirrored
        case (2, true): return .downMirrored
        default: return .leftMirrored
        }
    }
}
