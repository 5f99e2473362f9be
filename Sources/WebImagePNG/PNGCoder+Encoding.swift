import Foundation
import WebImageCore

extension PNGCoder {
    /// Encodes `image` as PNG: RGBA when any pixel is not opaque, else RGB; 16-bit images
    /// at 16 bits per sample. An animation (unless `firstFrameOnly`) becomes an APNG whose
    /// frames are full-canvas, drawn with "source" blending and no disposal.
    ///
    /// - Throws: `ImageError/Code/unsupportedFormat` for any format but PNG,
    ///   `ImageError/Code/encodingFailed` when libspng refuses the image.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(ImageError) -> Data {
        guard format == .png else {
            throw ImageError(.unsupportedFormat, "the PNG coder cannot encode \(format.rawValue)")
        }
        let image = try options.prepared(image, for: format)
        let frames = options.firstFrameOnly ? [image.frames[0]] : image.frames
        let keepsAlpha = frames.contains { $0.bitmap.containsTransparency }
        let png: Data
        if frames.count == 1 {
            let profile = options.colorProfile == .keep ? image.colorProfile : nil
            png = try PNGCoder.encodeStill(frames[0].bitmap, keepingAlpha: keepsAlpha, colorProfile: profile)
        } else {
            png = try PNGCoder.encodeAnimation(
                frames, loopCount: image.loopCount, keepingAlpha: keepsAlpha, cancellation: options.cancellation)
        }
        guard let copyright = options.copyright else { return png }
        return PNGCopyrightChunks.inserting(copyright, into: png)
    }

    /// One bitmap as a complete PNG (``PNGStillEncoder``: rows filtered by the usual
    /// heuristic, compressed by libdeflate), with `colorProfile` in an `iCCP` chunk when one
    /// is given.
    package static func encodeStill(_ bitmap: Bitmap, keepingAlpha: Bool, colorProfile: ColorProfile? = nil) throws(ImageError) -> Data {
        try PNGStillEncoder(bitmap, keepingAlpha: keepingAlpha).encode(colorProfile: colorProfile)
    }
}
